# Trajectory-optimisation style policy training loop (abridged): report the mean loss.
import torch
import torch.nn as nn


def make_policy(obs_dim=6, act_dim=2):
    return nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, act_dim), nn.Tanh())


def rollout_loss(policy, obs, target_actions):
    actions = policy(obs)
    return ((actions - target_actions) ** 2).sum(dim=1).mean()


def train(policy, num_steps=20):
    optimizer = torch.optim.Adam(policy.parameters(), lr=3e-4)
    total_loss = 0
    for i in range(num_steps):
        obs = torch.randn(32, 6)
        target = torch.tanh(obs[:, :2])
        optimizer.zero_grad()
        loss = rollout_loss(policy, obs, target)
        loss.backward()
        optimizer.step()
        total_loss += float(loss)
    return total_loss / num_steps


if __name__ == "__main__":
    torch.manual_seed(0)
    mean_loss = train(make_policy())
    print(f"mean loss {float(mean_loss):.4f}")
