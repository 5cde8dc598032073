"""Unsupervised video summarisation with REINFORCE (DSN, vsumm-reinforce style).

The summariser scores frames, frame selections are sampled from a
Bernoulli, and the diversity-representativeness reward of each sampled
summary weights the log-probability of the selection.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Bernoulli


class DSN(nn.Module):
    def __init__(self, in_dim=64, hid_dim=32, num_layers=1):
        super().__init__()
        self.rnn = nn.LSTM(in_dim, hid_dim, num_layers=num_layers, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(hid_dim * 2, 1)

    def forward(self, x):
        h, _ = self.rnn(x)
        return torch.sigmoid(self.fc(h))


def compute_reward(seq, actions, ignore_far_sim=True, temp_dist_thre=20):
    _seq = seq.detach()
    _actions = actions.detach()
    pick_idxs = _actions.squeeze().nonzero().squeeze(-1)
    num_picks = len(pick_idxs)
    if num_picks == 0:
        return torch.tensor(0.0)
    _seq = _seq.squeeze()
    n = _seq.size(0)
    normed_seq = _seq / _seq.norm(p=2, dim=1, keepdim=True)
    dissim_mat = 1.0 - torch.matmul(normed_seq, normed_seq.t())
    dissim_submat = dissim_mat[pick_idxs, :][:, pick_idxs]
    if ignore_far_sim:
        pick_mat = pick_idxs.expand(num_picks, num_picks)
        temp_dist_mat = torch.abs(pick_mat - pick_mat.t())
        dissim_submat[temp_dist_mat > temp_dist_thre] = 1.0
    reward_div = dissim_submat.sum() / (num_picks * (num_picks - 1.0)) if num_picks > 1 else torch.tensor(0.0)
    dist_mat = torch.pow(_seq, 2).sum(dim=1, keepdim=True).expand(n, n)
    dist_mat = dist_mat + dist_mat.t() - 2 * _seq @ _seq.t()
    dist_mat = dist_mat[:, pick_idxs]
    dist_mat = dist_mat.min(1, keepdim=True)[0]
    reward_rep = torch.exp(-dist_mat.mean())
    return reward_div * 0.5 + reward_rep * 0.5


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-epoch", type=int, default=3)
    parser.add_argument("--num-episode", type=int, default=5)
    parser.add_argument("--beta", type=float, default=0.01)
    parser.add_argument("--lr", type=float, default=1e-4)
    args = parser.parse_args()

    torch.manual_seed(0)
    dataset = {f"video_{i}": torch.randn(1, 40 + 5 * i, 64) for i in range(4)}
    model = DSN()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-5)
    baselines = {key: 0.0 for key in dataset}
    reward_writers = {key: [] for key in dataset}

    for epoch in range(args.max_epoch):
        for key, seq in dataset.items():
            probs = model(seq)
            cost = args.beta * (probs.mean() - 0.5) ** 2
            m = Bernoulli(probs)
            epis_rewards = []
            for _ in range(args.num_episode):
                actions = m.sample()
                log_probs = m.log_prob(actions)
                reward = compute_reward(seq, actions)
                expected_reward = log_probs.mean() * (reward - baselines[key])
                cost -= expected_reward
                epis_rewards.append(reward.item())
            optimizer.zero_grad()
            cost.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
            baselines[key] = 0.9 * baselines[key] + 0.1 * np.mean(epis_rewards)
            reward_writers[key].append(np.mean(epis_rewards))
        epoch_reward = np.mean([reward_writers[key][epoch] for key in dataset])
        print(f"epoch {epoch + 1}/{args.max_epoch}\t reward {epoch_reward:.4f}")


if __name__ == "__main__":
    main()
