"""IC3Net-style trainer: a recurrent multi-agent communication policy
(LSTMCell + mean communication) runs a whole episode, cutting the carried
hidden state every `detach_gap` steps; the episode's policy-gradient and value
losses are backpropagated once per episode batch."""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Args:
    nagents: int = 3
    obs_dim: int = 5
    hid_size: int = 16
    n_actions: int = 4
    max_steps: int = 12
    detach_gap: int = 4
    gamma: float = 0.95
    value_coeff: float = 0.01
    epochs: int = 3


class CommNetMLP(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.encoder = nn.Linear(args.obs_dim, args.hid_size)
        self.f_module = nn.LSTMCell(args.hid_size, args.hid_size)
        self.C = nn.Linear(args.hid_size, args.hid_size)
        self.heads = nn.Linear(args.hid_size, args.n_actions)
        self.value_head = nn.Linear(args.hid_size, 1)

    def init_hidden(self):
        n = self.args.nagents
        return (torch.zeros(n, self.args.hid_size), torch.zeros(n, self.args.hid_size))

    def forward(self, obs, prev_hid):
        x = self.encoder(obs)
        hidden_state, cell_state = prev_hid
        comm = self.C(hidden_state).mean(dim=0, keepdim=True).expand_as(hidden_state)
        hidden_state, cell_state = self.f_module(x + comm, (hidden_state, cell_state))
        return F.log_softmax(self.heads(hidden_state), -1), self.value_head(hidden_state), (hidden_state, cell_state)


class Trainer:
    def __init__(self, args, policy_net):
        self.args, self.policy_net = args, policy_net
        self.optimizer = torch.optim.RMSprop(policy_net.parameters(), lr=1e-3, alpha=0.97, eps=1e-6)
        self.rng = np.random.default_rng(0)

    def get_episode(self):
        episode = []
        prev_hid = self.policy_net.init_hidden()
        for t in range(self.args.max_steps):
            if t == 0 or (t + 1) % self.args.detach_gap == 0:
                prev_hid = (prev_hid[0].detach(), prev_hid[1].detach())
            obs = torch.as_tensor(self.rng.normal(size=(self.args.nagents, self.args.obs_dim)), dtype=torch.float32)
            log_probs, value, prev_hid = self.policy_net(obs, prev_hid)
            action = torch.multinomial(log_probs.exp(), 1).squeeze(1)
            reward = (action == 0).float() + 0.1 * obs[:, 0]
            episode.append((log_probs, value.squeeze(1), action, reward))
        return episode

    def compute_grad(self, episode):
        returns, running = [], torch.zeros(self.args.nagents)
        for _, _, _, reward in reversed(episode):
            running = reward + self.args.gamma * running
            returns.insert(0, running)
        action_loss, value_loss = 0.0, 0.0
        for (log_probs, value, action, _), ret in zip(episode, returns):
            advantage = ret - value.detach()
            action_loss = action_loss - (log_probs.gather(1, action[:, None]).squeeze(1) * advantage).sum()
            value_loss = value_loss + ((value - ret) ** 2).sum()
        loss = action_loss + self.args.value_coeff * value_loss
        loss.backward()
        return {"action_loss": action_loss.item(), "value_loss": value_loss.item()}

    def train_batch(self, n_episodes=2):
        self.optimizer.zero_grad()
        stats = [self.compute_grad(self.get_episode()) for _ in range(n_episodes)]
        self.optimizer.step()
        return stats


if __name__ == "__main__":
    torch.manual_seed(0)
    args = Args()
    trainer = Trainer(args, CommNetMLP(args))
    for epoch in range(args.epochs):
        print(epoch, trainer.train_batch())
