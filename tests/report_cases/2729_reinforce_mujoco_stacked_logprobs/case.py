import numpy as np
import torch
import torch.nn as nn
from torch.distributions.normal import Normal

torch.manual_seed(0)
np.random.seed(0)


class Policy_Network(nn.Module):
    def __init__(self, obs_space_dims, action_space_dims):
        super().__init__()
        self.shared_net = nn.Sequential(nn.Linear(obs_space_dims, 16), nn.Tanh(), nn.Linear(16, 32), nn.Tanh())
        self.policy_mean_net = nn.Linear(32, action_space_dims)
        self.policy_stddev_net = nn.Linear(32, action_space_dims)

    def forward(self, x):
        shared = self.shared_net(x.float())
        return self.policy_mean_net(shared), torch.log(1 + torch.exp(self.policy_stddev_net(shared)))


class REINFORCE:
    def __init__(self, obs_space_dims, action_space_dims):
        self.learning_rate, self.gamma, self.eps = 1e-4, 0.99, 1e-6
        self.probs, self.rewards = [], []
        self.net = Policy_Network(obs_space_dims, action_space_dims)
        self.optimizer = torch.optim.AdamW(self.net.parameters(), lr=self.learning_rate)

    def sample_action(self, state):
        state = torch.tensor(np.array([state]))
        action_means, action_stddevs = self.net(state)
        distrib = Normal(action_means[0] + self.eps, action_stddevs[0] + self.eps)
        action = distrib.sample()
        self.probs.append(distrib.log_prob(action))
        return action.numpy()

    def update(self):
        running_g, gs = 0, []
        for R in self.rewards[::-1]:
            running_g = R + self.gamma * running_g
            gs.insert(0, running_g)
        deltas = torch.tensor(gs)
        log_probs = torch.stack(self.probs)
        log_prob_mean = log_probs.mean()
        loss = -torch.sum(log_prob_mean * deltas)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.probs, self.rewards = [], []


agent = REINFORCE(obs_space_dims=11, action_space_dims=1)
for episode in range(4):
    obs = np.random.randn(11)
    for t in range(12):
        action = agent.sample_action(obs)
        obs = np.random.randn(11)
        agent.rewards.append(float(1.0 - abs(action[0])))
    agent.update()
