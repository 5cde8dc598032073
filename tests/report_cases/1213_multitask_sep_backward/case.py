import argparse
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class SharedEncoder(nn.Module):
    def __init__(self, in_ch=1, width=8, code_dim=32):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(in_ch, width, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(width, width * 2, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.fc = nn.Linear(width * 2 * 4 * 4, code_dim)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))


class MultiTaskNet(nn.Module):
    def __init__(self, num_classes=5, code_dim=32):
        super().__init__()
        self.encoder = SharedEncoder(code_dim=code_dim)
        self.cls_head = nn.Linear(code_dim, num_classes)
        self.decoder = nn.Sequential(nn.Linear(code_dim, 64), nn.ReLU(), nn.Linear(64, 16 * 16))

    def forward(self, x):
        code = self.encoder(x)
        logits = self.cls_head(code)
        recon = self.decoder(code).view(-1, 1, 16, 16)
        return logits, recon, code


class Trainer:
    def __init__(self, args):
        self.args = args
        self.model = MultiTaskNet(num_classes=args.num_classes)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=args.lr, betas=(0.0, 0.99))
        self.meters = defaultdict(list)

    def train_step(self, images, labels):
        self.model.train()
        logits, recon, code = self.model(images)
        cls_loss = F.cross_entropy(logits, labels)
        rec_loss = F.l1_loss(recon, images)
        code_reg = code.pow(2).mean()

        self.optimizer.zero_grad()
        cls_loss.backward()
        (rec_loss * self.args.lambda_rec + code_reg * self.args.lambda_reg).backward()
        self.optimizer.step()

        self.meters["cls"].append(cls_loss.item())
        self.meters["rec"].append(rec_loss.item())
        return cls_loss.item(), rec_loss.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iters", type=int, default=5)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--num_classes", type=int, default=5)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--lambda_rec", type=float, default=1.0)
    parser.add_argument("--lambda_reg", type=float, default=0.01)
    args = parser.parse_args()

    torch.manual_seed(3)
    trainer = Trainer(args)
    for it in range(args.iters):
        images = torch.rand(args.batch, 1, 16, 16)
        labels = torch.randint(0, args.num_classes, (args.batch,))
        cls_l, rec_l = trainer.train_step(images, labels)
        print(f"iter {it} cls {cls_l:.3f} rec {rec_l:.3f}")


if __name__ == "__main__":
    main()
