"""Maximum-likelihood training of a small Glow on 4-D ring-shaped data.
Model components live in flows.py."""
import argparse

import torch

from flows import Glow, ring_data

torch.manual_seed(0)


CONFIG = {"dim": 4, "n_steps": 4, "lr": 1e-3, "steps": 25, "batch": 128}


@torch.no_grad()
def evaluate(flow, n=512):
    x = ring_data(n, dim=CONFIG["dim"])
    nll = -flow.log_prob(x).mean().item()
    return nll / CONFIG["dim"]


def train(steps=CONFIG["steps"], batch=CONFIG["batch"]):
    flow = Glow(dim=CONFIG["dim"], n_steps=CONFIG["n_steps"])
    optimizer = torch.optim.Adam(flow.parameters(), lr=CONFIG["lr"])
    for step in range(steps):
        x = ring_data(batch, dim=CONFIG["dim"])
        nll = -flow.log_prob(x).mean()
        optimizer.zero_grad()
        nll.backward()
        optimizer.step()
        if step % 5 == 0:
            print(f"step {step}: nll {nll.item():.3f}")
    print(f"validation nll per dim: {evaluate(flow):.3f}")
    return flow


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=CONFIG["steps"])
    parser.add_argument("--batch", type=int, default=CONFIG["batch"])
    return parser.parse_args()


if __name__ == "__main__":
    args = parse_args()
    train(steps=args.steps, batch=args.batch)
