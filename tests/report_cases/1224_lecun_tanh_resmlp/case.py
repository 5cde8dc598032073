import argparse

import torch
import torch.nn.functional as F

from model import ResMLPRegressor


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--in-dim", type=int, default=10)
    p.add_argument("--dim", type=int, default=24)
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-3)
    return p.parse_args()


def main():
    args = get_args()
    torch.manual_seed(0)
    w_true = torch.randn(args.in_dim, 2)
    model = ResMLPRegressor(args.in_dim, args.dim, args.depth, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.steps)
    for step in range(args.steps):
        x = torch.randn(args.batch_size, args.in_dim)
        y = torch.tanh(x @ w_true)
        pred = model(x)
        loss = F.mse_loss(pred, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        scheduler.step()
        print(f"step {step} loss {loss.item():.4f} lr {scheduler.get_last_lr()[0]:.5f}")


if __name__ == "__main__":
    main()
