import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal


class CriticNetwork(nn.Module):
    def __init__(self, input_dims, n_actions, fc_dims=32, lr=3e-4):
        super().__init__()
        self.fc1 = nn.Linear(input_dims + n_actions, fc_dims)
        self.fc2 = nn.Linear(fc_dims, fc_dims)
        self.q = nn.Linear(fc_dims, 1)
        self.optimizer = torch.optim.Adam(self.parameters(), lr=lr)

    def forward(self, state, action):
        x = F.relu(self.fc1(torch.cat([state, action], dim=1)))
        x = F.relu(self.fc2(x))
        return self.q(x)


class ValueNetwork(nn.Module):
    def __init__(self, input_dims, fc_dims=32, lr=3e-4):
        super().__init__()
        self.fc1 = nn.Linear(input_dims, fc_dims)
        self.v = nn.Linear(fc_dims, 1)
        self.optimizer = torch.optim.Adam(self.parameters(), lr=lr)

    def forward(self, state):
        return self.v(F.relu(self.fc1(state)))


class ActorNetwork(nn.Module):
    def __init__(self, input_dims, n_actions, max_action=1.0, fc_dims=32, lr=3e-4):
        super().__init__()
        self.reparam_noise = 1e-6
        self.max_action = max_action
        self.fc1 = nn.Linear(input_dims, fc_dims)
        self.mu = nn.Linear(fc_dims, n_actions)
        self.sigma = nn.Linear(fc_dims, n_actions)
        self.optimizer = torch.optim.Adam(self.parameters(), lr=lr)

    def forward(self, state):
        x = F.relu(self.fc1(state))
        sigma = torch.clamp(self.sigma(x), min=self.reparam_noise, max=1)
        return self.mu(x), sigma

    def sample_normal(self, state, reparameterize=True):
        mu, sigma = self.forward(state)
        probabilities = Normal(mu, sigma)
        actions = probabilities.rsample() if reparameterize else probabilities.sample()
        action = torch.tanh(actions) * self.max_action
        log_probs = probabilities.log_prob(actions)
        log_probs = log_probs - torch.log(1 - action.pow(2) + self.reparam_noise)
        return action, log_probs.sum(1, keepdim=True)


def update_network_parameters(target, source, tau):
    with torch.no_grad():
        for t, s in zip(target.parameters(), source.parameters()):
            t.mul_(1 - tau).add_(tau * s)
