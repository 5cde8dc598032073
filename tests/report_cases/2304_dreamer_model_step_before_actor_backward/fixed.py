"""Dreamer-style agent update on random replay sequences.

The world model (encoder, deterministic transition, reward head) is trained
on observed sequences; the actor is trained by backpropagating imagined
returns through the frozen transition and reward models; the value head
regresses the imagined lambda-returns.
"""
import argparse
from contextlib import contextmanager

import torch
import torch.nn as nn
import torch.nn.functional as F


@contextmanager
def FreezeParameters(modules):
    states = [[p.requires_grad for p in m.parameters()] for m in modules]
    for m in modules:
        for p in m.parameters():
            p.requires_grad_(False)
    try:
        yield
    finally:
        for m, st in zip(modules, states):
            for p, s in zip(m.parameters(), st):
                p.requires_grad_(s)


class WorldModel(nn.Module):
    def __init__(self, obs_dim, act_dim, feat_dim):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(obs_dim, feat_dim), nn.ELU())
        self.transition = nn.Sequential(nn.Linear(feat_dim + act_dim, 64), nn.ELU(),
                                        nn.Linear(64, feat_dim))
        self.reward = nn.Sequential(nn.Linear(feat_dim, 64), nn.ELU(), nn.Linear(64, 1))

    def step(self, feat, action):
        return torch.tanh(self.transition(torch.cat([feat, action], -1)))


class DreamerAlgo:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = WorldModel(cfg["obs_dim"], cfg["act_dim"], cfg["feat_dim"])
        self.actor = nn.Sequential(nn.Linear(cfg["feat_dim"], 64), nn.ELU(),
                                   nn.Linear(64, cfg["act_dim"]), nn.Tanh())
        self.value = nn.Sequential(nn.Linear(cfg["feat_dim"], 64), nn.ELU(), nn.Linear(64, 1))
        self.model_optimizer = torch.optim.Adam(self.model.parameters(), lr=6e-4)
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=8e-5)
        self.value_optimizer = torch.optim.Adam(self.value.parameters(), lr=8e-5)

    def loss(self, obs, act, rew):
        # --- world model ---
        feat = self.model.encoder(obs)                        # [T, B, F]
        pred_next = self.model.step(feat[:-1], act[:-1])
        model_loss = F.mse_loss(pred_next, feat[1:].detach()) + \
            F.mse_loss(self.model.reward(feat).squeeze(-1), rew)

        # --- imagination from posterior features ---
        start = feat.reshape(-1, feat.shape[-1]).detach()
        with FreezeParameters([self.model, self.value]):
            imag_feat, s = [], start
            for _ in range(self.cfg["horizon"]):
                s = self.model.step(s, self.actor(s))
                imag_feat.append(s)
            imag_feat = torch.stack(imag_feat)
            imag_reward = self.model.reward(imag_feat).squeeze(-1)
            value = self.value(imag_feat).squeeze(-1)
        returns = self.lambda_return(imag_reward, value)
        actor_loss = -returns.mean()

        # --- value ---
        value_pred = self.value(imag_feat.detach()).squeeze(-1)
        value_loss = F.mse_loss(value_pred[:-1], returns.detach())
        return model_loss, actor_loss, value_loss

    def lambda_return(self, reward, value, gamma=0.99, lam=0.95):
        next_values = value[1:]
        last = value[-1]
        out = []
        for t in reversed(range(reward.shape[0] - 1)):
            last = reward[t] + gamma * ((1 - lam) * next_values[t] + lam * last)
            out.append(last)
        return torch.stack(out[::-1])

    def optimize_agent(self, obs, act, rew):
        model_loss, actor_loss, value_loss = self.loss(obs, act, rew)
        grad_clip = self.cfg["grad_clip"]

        self.model_optimizer.zero_grad()
        self.actor_optimizer.zero_grad()
        self.value_optimizer.zero_grad()
        model_loss.backward()
        actor_loss.backward()
        value_loss.backward()

        torch.nn.utils.clip_grad_norm_(self.model.parameters(), grad_clip)
        torch.nn.utils.clip_grad_norm_(self.actor.parameters(), grad_clip)
        torch.nn.utils.clip_grad_norm_(self.value.parameters(), grad_clip)
        self.model_optimizer.step()
        self.actor_optimizer.step()
        self.value_optimizer.step()
        return model_loss.item(), actor_loss.item(), value_loss.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--itrs", type=int, default=5)
    parser.add_argument("--horizon", type=int, default=8)
    args = parser.parse_args()
    cfg = dict(obs_dim=10, act_dim=2, feat_dim=16, horizon=args.horizon, grad_clip=100.0)
    torch.manual_seed(0)
    algo = DreamerAlgo(cfg)
    T, B = 12, 8
    for itr in range(args.itrs):
        obs = torch.randn(T, B, cfg["obs_dim"])
        act = torch.rand(T, B, cfg["act_dim"]) * 2 - 1
        rew = torch.randn(T, B)
        print(itr, algo.optimize_agent(obs, act, rew))


if __name__ == "__main__":
    main()
