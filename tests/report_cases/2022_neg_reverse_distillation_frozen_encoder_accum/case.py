"""Reverse distillation for anomaly detection (toy): a frozen pre-trained encoder (teacher),
a trainable projection layer + bottleneck + student decoder, gradient accumulation."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def loss_function(a, b):
    cos_loss = torch.nn.CosineSimilarity()
    loss = 0
    for item in range(len(a)):
        loss += torch.mean(1 - cos_loss(a[item].view(a[item].shape[0], -1), b[item].view(b[item].shape[0], -1)))
    return loss


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(inplace=True))
        self.layer2 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(inplace=True))

    def forward(self, x):
        f1 = self.layer1(x)
        f2 = self.layer2(f1)
        return [f1, f2]


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.up2 = nn.Sequential(nn.ConvTranspose2d(16, 16, 2, stride=2), nn.ReLU(inplace=True))
        self.up1 = nn.Sequential(nn.ConvTranspose2d(16, 8, 2, stride=2), nn.ReLU(inplace=True))
        self.bn = nn.Conv2d(16, 16, 3, stride=2, padding=1)

    def forward(self, feats):
        z = self.bn(feats[-1])
        d2 = self.up2(z)
        d1 = self.up1(d2)
        return [d1, d2]


class MultiProjectionLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.ModuleList([nn.Conv2d(8, 8, 1), nn.Conv2d(16, 16, 1)])

    def forward(self, feats):
        return [p(f) for p, f in zip(self.proj, feats)]


def train(args):
    torch.manual_seed(111)
    encoder = Encoder()
    encoder.eval()
    for p in encoder.parameters():
        p.requires_grad = False
    proj_layer = MultiProjectionLayer()
    decoder = Decoder()
    optimizer_proj = torch.optim.Adam(proj_layer.parameters(), lr=args.proj_lr, betas=(0.5, 0.999))
    optimizer_distill = torch.optim.Adam(decoder.parameters(), lr=args.distill_lr, betas=(0.5, 0.999))

    train_dataloader = [torch.rand(2, 3, 16, 16) for _ in range(4)]
    for epoch in range(args.epochs):
        proj_layer.train()
        decoder.train()
        loss_list = []
        optimizer_proj.zero_grad()
        optimizer_distill.zero_grad()
        for i, img in enumerate(train_dataloader):
            with torch.no_grad():
                inputs = encoder(img)
            feature_space = proj_layer(inputs)
            outputs = decoder(feature_space)
            L_distill = loss_function(inputs, outputs)
            L_proj = sum(F.mse_loss(f, x) for f, x in zip(feature_space, inputs))
            loss = (L_distill + args.weight_proj * L_proj) / args.accumulation_steps
            loss.backward()
            if (i + 1) % args.accumulation_steps == 0:
                optimizer_proj.step()
                optimizer_distill.step()
                optimizer_proj.zero_grad()
                optimizer_distill.zero_grad()
            loss_list.append(loss.item())
        print('epoch [{}/{}], loss:{:.4f}'.format(epoch + 1, args.epochs, sum(loss_list) / len(loss_list)))


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--epochs', default=2, type=int)
    parser.add_argument('--proj_lr', default=1e-3, type=float)
    parser.add_argument('--distill_lr', default=5e-3, type=float)
    parser.add_argument('--weight_proj', default=0.2, type=float)
    parser.add_argument('--accumulation_steps', default=2, type=int)
    train(parser.parse_args())
