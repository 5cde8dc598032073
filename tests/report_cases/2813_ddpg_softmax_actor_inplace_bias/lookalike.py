import copy
import torch
import torch.nn as nn

torch.manual_seed(0)


class Actor(nn.Module):
    def __init__(self, s_dim, a_dim):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(s_dim, 32), nn.ReLU(), nn.Linear(32, a_dim))  # linear head: its output is not saved by any backward

    def forward(self, s, state=None, info=None):
        return self.model(s), None


class Critic(nn.Module):
    def __init__(self, s_dim, a_dim):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(s_dim + a_dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, s, a):
        return self.model(torch.cat([s, a], dim=1))


class DDPGPolicy:
    def __init__(self, actor, critic, action_range=(0.0, 2.0), tau=0.005, gamma=0.99, exploration_noise=0.1):
        self.actor, self.critic = actor, critic
        self.actor_old, self.critic_old = copy.deepcopy(actor), copy.deepcopy(critic)
        self.actor_optim = torch.optim.Adam(actor.parameters(), lr=1e-3)
        self.critic_optim = torch.optim.Adam(critic.parameters(), lr=1e-3)
        self._action_bias = (action_range[0] + action_range[1]) / 2
        self._action_scale = (action_range[1] - action_range[0]) / 2
        self._tau, self._gamma, self._eps = tau, gamma, exploration_noise

    def forward(self, obs, model="actor", eps=None):
        model = getattr(self, model)
        logits, h = model(obs)
        logits *= self._action_scale
        logits += self._action_bias
        if eps is None:
            eps = self._eps
        if eps > 0:
            logits = logits + torch.randn_like(logits) * eps
        return logits

    def sync_weight(self):
        for o, n in zip(self.actor_old.parameters(), self.actor.parameters()):
            o.data.copy_(o.data * (1 - self._tau) + n.data * self._tau)
        for o, n in zip(self.critic_old.parameters(), self.critic.parameters()):
            o.data.copy_(o.data * (1 - self._tau) + n.data * self._tau)

    def learn(self, obs, act, rew, obs_next, done):
        with torch.no_grad():
            target_q = self.critic_old(obs_next, self.forward(obs_next, model="actor_old", eps=0.0))
            target_q = rew + (1.0 - done) * self._gamma * target_q
        current_q = self.critic(obs, act)
        critic_loss = ((current_q - target_q) ** 2).mean()
        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()
        actor_loss = -self.critic(obs, self.forward(obs, eps=0.0)).mean()
        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()
        self.sync_weight()
        return actor_loss.item(), critic_loss.item()


policy = DDPGPolicy(Actor(3, 2), Critic(3, 2))
buffer_obs = torch.randn(64, 3)
for it in range(4):
    idx = torch.randint(0, 64, (16,))
    obs, obs_next = buffer_obs[idx], buffer_obs[idx] + 0.1
    act = torch.rand(16, 2) * 2
    rew, done = -act.sum(1, keepdim=True), torch.zeros(16, 1)
    print(it, policy.learn(obs, act, rew, obs_next, done))
