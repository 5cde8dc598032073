import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal


class QNetwork(nn.Module):
    def __init__(self, num_inputs, num_actions, hidden_dim):
        super().__init__()
        self.linear1 = nn.Linear(num_inputs + num_actions, hidden_dim)
        self.linear2 = nn.Linear(hidden_dim, 1)
        self.linear3 = nn.Linear(num_inputs + num_actions, hidden_dim)
        self.linear4 = nn.Linear(hidden_dim, 1)

    def forward(self, state, action):
        xu = torch.cat([state, action], 1)
        x1 = self.linear2(F.relu(self.linear1(xu)))
        x2 = self.linear4(F.relu(self.linear3(xu)))
        return x1, x2


class GaussianPolicy(nn.Module):
    def __init__(self, num_inputs, num_actions, hidden_dim):
        super().__init__()
        self.linear1 = nn.Linear(num_inputs, hidden_dim)
        self.mean_linear = nn.Linear(hidden_dim, num_actions)
        self.log_std_linear = nn.Linear(hidden_dim, num_actions)

    def sample(self, state):
        x = F.relu(self.linear1(state))
        mean = self.mean_linear(x)
        log_std = self.log_std_linear(x).clamp(-20, 2)
        normal = Normal(mean, log_std.exp())
        x_t = normal.rsample()
        action = torch.tanh(x_t)
        log_prob = normal.log_prob(x_t) - torch.log(1 - action.pow(2) + 1e-6)
        return action, log_prob.sum(1, keepdim=True)
