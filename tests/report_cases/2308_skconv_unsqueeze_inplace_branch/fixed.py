"""Zero-shot underwater image restoration (Zero-Restore style watermodel).

A J-net predicts the clean image, a T-net predicts the transmission map
built from selective-kernel (SK) convolutions, and ambient light is a
global estimate; the network is fitted to a single degraded image.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class SKConv(nn.Module):
    def __init__(self, features, M=2, G=1, r=2, stride=1, L=8):
        super().__init__()
        d = max(int(features / r), L)
        self.M = M
        self.features = features
        self.convs = nn.ModuleList([])
        for i in range(M):
            self.convs.append(nn.Sequential(
                nn.Conv2d(features, features, kernel_size=3 + i * 2, stride=stride,
                          padding=1 + i, groups=G),
                nn.BatchNorm2d(features),
                nn.ReLU(inplace=False)))
        self.fc = nn.Linear(features, d)
        self.fcs = nn.ModuleList([nn.Linear(d, features) for _ in range(M)])
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x):
        for i, conv in enumerate(self.convs):
            fea = conv(x).clone().unsqueeze_(dim=1)
            if i == 0:
                feas = fea
            else:
                feas = torch.cat([feas, fea], dim=1)
        fea_U = torch.sum(feas, dim=1)
        fea_s = fea_U.mean(-1).mean(-1)
        fea_z = self.fc(fea_s)
        for i, fc in enumerate(self.fcs):
            vector = fc(fea_z).unsqueeze(dim=1)
            attention_vectors = vector if i == 0 else torch.cat([attention_vectors, vector], dim=1)
        attention_vectors = self.softmax(attention_vectors).unsqueeze(-1).unsqueeze(-1)
        return (feas * attention_vectors).sum(dim=1)


class TNet(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.head = nn.Conv2d(3, ch, 3, padding=1)
        self.sk1 = SKConv(ch)
        self.sk2 = SKConv(ch)
        self.out = nn.Conv2d(ch, 3, 1)

    def forward(self, x):
        return torch.sigmoid(self.out(self.sk2(self.sk1(self.head(x)))))


class JNet(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(ch, 3, 1), nn.Sigmoid())

    def forward(self, x):
        return self.net(x)


class WaterModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.jnet, self.tnet = JNet(), TNet()

    def forward(self, img):
        j = self.jnet(img)
        t = self.tnet(img)
        a = img.flatten(2).max(dim=-1)[0].view(-1, 3, 1, 1)
        return j, t, a


def restoration_loss(img, j, t, a, lam=0.1):
    recon = j * t + a * (1 - t)
    tv = (t[..., 1:, :] - t[..., :-1, :]).abs().mean() + (t[..., 1:] - t[..., :-1]).abs().mean()
    return F.mse_loss(recon, img) + lam * tv


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--size", type=int, default=32)
    args = parser.parse_args()
    torch.manual_seed(0)
    img = torch.rand(1, 3, args.size, args.size) * torch.tensor([0.3, 0.8, 0.9]).view(1, 3, 1, 1)
    model = WaterModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(args.iters):
        j, t, a = model(img)
        loss = restoration_loss(img, j, t, a)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if it % 5 == 0:
            print(it, round(loss.item(), 5))


if __name__ == "__main__":
    main()
