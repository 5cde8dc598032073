"""Entry point: REINFORCE with an entropy bonus on a toy bandit."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from losses import entropy_penalty, policy_gradient_loss  # noqa: E402
from model import build_policy  # noqa: E402

CFG = {"obs_dim": 4, "n_buttons": 3, "hidden": 16, "lr": 1e-2, "ent_coef": 0.01, "iters": 4}


def rollout(policy, batch=8):
    obs = torch.randn(batch, CFG["obs_dim"])
    dist = policy(obs)
    actions = dist.sample()
    rewards = (actions == (obs[:, :CFG["n_buttons"]] > 0).float()).float().sum(-1)
    advantages = rewards - rewards.mean()
    return dist, actions, advantages


def main():
    torch.manual_seed(0)
    policy = build_policy(CFG)
    opt = torch.optim.Adam(policy.parameters(), lr=CFG["lr"])
    for it in range(CFG["iters"]):
        dist, actions, adv = rollout(policy)
        pg_loss = policy_gradient_loss(dist, actions, adv)
        ent_loss = entropy_penalty(dist, CFG["ent_coef"])
        opt.zero_grad()
        (pg_loss + ent_loss).backward()
        opt.step()
        print(it, round(pg_loss.item(), 4), round(ent_loss.item(), 4))


if __name__ == "__main__":
    main()
