import torch
import torch.nn as nn


class FeaturesExtractor(nn.Module):
    def __init__(self, obs_dim, features_dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, features_dim), nn.ReLU())

    def forward(self, obs):
        return self.net(obs)


class Actor(nn.Module):
    def __init__(self, features_extractor, act_dim):
        super().__init__()
        self.features_extractor = features_extractor
        self.mu = nn.Linear(32, act_dim)
        self.log_std = nn.Linear(32, act_dim)

    def action_log_prob(self, obs):
        f = self.features_extractor(obs)
        mean, log_std = self.mu(f), self.log_std(f).clamp(-5, 2)
        dist = torch.distributions.Normal(mean, log_std.exp())
        u = dist.rsample()
        action = torch.tanh(u)
        log_prob = (dist.log_prob(u) - torch.log(1 - action.pow(2) + 1e-6)).sum(-1, keepdim=True)
        return action, log_prob


class Critic(nn.Module):
    def __init__(self, features_extractor, act_dim, n_critics=2):
        super().__init__()
        self.features_extractor = features_extractor
        self.q_networks = nn.ModuleList(
            [nn.Sequential(nn.Linear(32 + act_dim, 64), nn.ReLU(), nn.Linear(64, 1)) for _ in range(n_critics)])

    def forward(self, obs, actions):
        f = self.features_extractor(obs)
        x = torch.cat([f, actions], dim=1)
        return tuple(q(x) for q in self.q_networks)


class SACPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim, lr=3e-4, share_features_extractor=True):
        super().__init__()
        shared = FeaturesExtractor(obs_dim)
        self.actor = Actor(shared, act_dim)
        self.actor.optimizer = torch.optim.Adam(self.actor.parameters(), lr=lr)
        if share_features_extractor:
            self.critic = Critic(self.actor.features_extractor, act_dim)
            # Do not optimize the shared features extractor with the critic loss
            critic_parameters = [p for n, p in self.critic.named_parameters() if "features_extractor" not in n]
        else:
            self.critic = Critic(FeaturesExtractor(obs_dim), act_dim)
            critic_parameters = self.critic.parameters()
        self.critic_target = Critic(FeaturesExtractor(obs_dim), act_dim)
        self.critic_target.load_state_dict(self.critic.state_dict())
        self.critic.optimizer = torch.optim.Adam(critic_parameters, lr=lr)
