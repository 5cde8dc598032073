"""Soft actor-critic on a toy continuous-control task (1-D point mass)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.mu = nn.Linear(hidden, act_dim)
        self.log_std = nn.Linear(hidden, act_dim)

    def forward(self, obs):
        h = self.body(obs)
        mu, log_std = self.mu(h), self.log_std(h).clamp(-5, 2)
        dist = torch.distributions.Normal(mu, log_std.exp())
        raw = dist.rsample()
        act = torch.tanh(raw)
        log_prob = (dist.log_prob(raw) - torch.log(1 - act.pow(2) + 1e-6)).sum(-1, keepdim=True)
        return act, log_prob


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], -1))


class SACPolicy:
    def __init__(self, obs_dim=3, act_dim=1, gamma=0.99, tau=0.005, alpha=0.2):
        self.actor = Actor(obs_dim, act_dim)
        self.critic1, self.critic2 = Critic(obs_dim, act_dim), Critic(obs_dim, act_dim)
        self.critic1_old = Critic(obs_dim, act_dim)
        self.critic2_old = Critic(obs_dim, act_dim)
        self.critic1_old.load_state_dict(self.critic1.state_dict())
        self.critic2_old.load_state_dict(self.critic2.state_dict())
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=3e-4)
        self.critic1_optim = torch.optim.Adam(self.critic1.parameters(), lr=3e-4)
        self.critic2_optim = torch.optim.Adam(self.critic2.parameters(), lr=3e-4)
        self.gamma, self.tau, self.alpha = gamma, tau, alpha

    def sync_weight(self):
        for old, new in ((self.critic1_old, self.critic1), (self.critic2_old, self.critic2)):
            for o, n in zip(old.parameters(), new.parameters()):
                o.data.copy_(o.data * (1 - self.tau) + n.data * self.tau)

    def learn(self, batch):
        obs, act, rew, obs_next, done = batch
        with torch.no_grad():
            a_next, logp_next = self.actor(obs_next)
            q_next = torch.min(self.critic1_old(obs_next, a_next), self.critic2_old(obs_next, a_next))
            target_q = rew + self.gamma * (1 - done) * (q_next - self.alpha * logp_next)

        a_pi, logp_pi = self.actor(obs)
        q1_pi = self.critic1(obs, a_pi)
        q2_pi = self.critic2(obs, a_pi)

        actor_loss = (self.alpha * logp_pi - torch.min(q1_pi, q2_pi)).mean()
        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()

        critic1_loss = F.mse_loss(self.critic1(obs, act), target_q)
        self.critic1_optim.zero_grad()
        critic1_loss.backward()
        self.critic1_optim.step()

        critic2_loss = F.mse_loss(self.critic2(obs, act), target_q)
        self.critic2_optim.zero_grad()
        critic2_loss.backward()
        self.critic2_optim.step()
        self.sync_weight()
        return {"loss/actor": actor_loss.item(), "loss/critic1": critic1_loss.item()}


def sample_batch(n=128, obs_dim=3):
    obs = torch.randn(n, obs_dim)
    act = torch.rand(n, 1) * 2 - 1
    rew = -(obs[:, :1] + act).pow(2)
    obs_next = obs + 0.1 * torch.randn(n, obs_dim)
    done = (torch.rand(n, 1) < 0.05).float()
    return obs, act, rew, obs_next, done


if __name__ == "__main__":
    policy = SACPolicy()
    for step in range(20):
        stats = policy.learn(sample_batch())
    print(stats)
