import torch
import torch.nn as nn
import torch.nn.functional as F


def weight_init(m):
    if isinstance(m, nn.Linear):
        nn.init.orthogonal_(m.weight.data)
        if m.bias is not None:
            m.bias.data.fill_(0.0)
    elif isinstance(m, (nn.Conv2d, nn.ConvTranspose2d)):
        gain = nn.init.calculate_gain("relu")
        nn.init.orthogonal_(m.weight.data, gain)
        if m.bias is not None:
            m.bias.data.fill_(0.0)


class Encoder(nn.Module):
    def __init__(self, obs_shape):
        super().__init__()
        self.convnet = nn.Sequential(
            nn.Conv2d(obs_shape[0], 16, 3, stride=2), nn.ReLU(),
            nn.Conv2d(16, 16, 3, stride=1), nn.ReLU())
        with torch.no_grad():
            self.repr_dim = self.convnet(torch.zeros(1, *obs_shape)).numel()
        self.apply(weight_init)

    def forward(self, obs):
        obs = obs / 255.0 - 0.5
        return self.convnet(obs).flatten(1)


class Actor(nn.Module):
    def __init__(self, obs_dim, action_dim, feature_dim, hidden_dim):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, feature_dim), nn.LayerNorm(feature_dim), nn.Tanh())
        self.policy = nn.Sequential(nn.Linear(feature_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, action_dim))
        self.apply(weight_init)

    def forward(self, obs, std):
        mu = torch.tanh(self.policy(self.trunk(obs)))
        return mu, torch.ones_like(mu) * std


class Critic(nn.Module):
    def __init__(self, obs_dim, action_dim, feature_dim, hidden_dim):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, feature_dim), nn.LayerNorm(feature_dim), nn.Tanh())

        def q_net():
            return nn.Sequential(nn.Linear(feature_dim + action_dim, hidden_dim), nn.ReLU(),
                                 nn.Linear(hidden_dim, 1))
        self.Q1, self.Q2 = q_net(), q_net()
        self.apply(weight_init)

    def forward(self, obs, action):
        h = torch.cat([self.trunk(obs), action], dim=-1)
        return self.Q1(h), self.Q2(h)


class CIC(nn.Module):
    def __init__(self, obs_dim, skill_dim, hidden_dim):
        super().__init__()
        self.state_net = nn.Sequential(nn.Linear(obs_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, skill_dim))
        self.next_state_net = nn.Sequential(nn.Linear(obs_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, skill_dim))
        self.pred_net = nn.Sequential(nn.Linear(2 * skill_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, skill_dim))
        self.skill_net = nn.Sequential(nn.Linear(skill_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, skill_dim))
        self.apply(weight_init)

    def forward(self, state, next_state, skill):
        state = self.state_net(state)
        next_state = self.next_state_net(next_state)
        query = self.skill_net(skill)
        key = self.pred_net(torch.cat([state, next_state], 1))
        return query, key
