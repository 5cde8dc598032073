"""Train the MVANet-like segmenter on random image/mask pairs.

Entry point (model in model.py). Like the original repo, all ReLU and
Dropout modules are switched to in-place mode to save activation memory.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from model import MVANet


def build_model(cfg):
    net = MVANet(c=cfg["channels"])
    for m in net.modules():
        # only ReLUs that follow BatchNorm are made in-place; Dropout stays
        # out-of-place because it runs on F.relu outputs saved for backward
        if isinstance(m, nn.ReLU):
            m.inplace = True
    return net


def structure_loss(pred, mask):
    wbce = F.binary_cross_entropy_with_logits(pred, mask)
    p = torch.sigmoid(pred)
    inter = (p * mask).sum(dim=(2, 3))
    union = (p + mask).sum(dim=(2, 3))
    wiou = 1 - (inter + 1) / (union - inter + 1)
    return wbce + wiou.mean()


def train(cfg):
    torch.manual_seed(cfg["seed"])
    generator = build_model(cfg)
    generator.train()
    optimizer = torch.optim.Adam(generator.parameters(), lr=cfg["lr"])
    print("Generator Learning Rate:", cfg["lr"])
    for epoch in range(cfg["epochs"]):
        for step in range(cfg["steps"]):
            images = torch.randn(cfg["batch_size"], 3, 32, 32)
            gts = (torch.rand(cfg["batch_size"], 1, 32, 32) > 0.5).float()
            sideout = generator(images)
            loss = structure_loss(sideout, gts)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-5)
    args = parser.parse_args()
    train({"channels": 32, "batch_size": 2, "seed": 0, "epochs": args.epochs,
           "steps": args.steps, "lr": args.lr})
