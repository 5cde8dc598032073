"""Actor-critic policy, a toy vectorised environment and on-policy rollout storage."""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class ToyVecEnv:
    """A batch of independent 'reach the target bucket' tasks with random observations."""

    def __init__(self, num_envs, obs_dim, n_actions, horizon=16, seed=0):
        self.num_envs = num_envs
        self.obs_dim = obs_dim
        self.n_actions = n_actions
        self.horizon = horizon
        self.gen = torch.Generator().manual_seed(seed)
        self.t = torch.zeros(num_envs, dtype=torch.long)
        self.obs = torch.randn(num_envs, obs_dim, generator=self.gen)

    def reset(self):
        self.t.zero_()
        self.obs = torch.randn(self.num_envs, self.obs_dim, generator=self.gen)
        return self.obs.clone()

    def step(self, action):
        target = (self.obs[:, 0] > 0).long() * (self.n_actions - 1)
        reward = (action == target).float() - 0.1
        self.t += 1
        done = self.t >= self.horizon
        self.obs = torch.randn(self.num_envs, self.obs_dim, generator=self.gen)
        self.t[done] = 0
        return self.obs.clone(), reward, done.float()


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)

    def act(self, obs):
        logits, value = self(obs)
        dist = Categorical(logits=logits)
        action = dist.sample()
        return action, dist.log_prob(action), value

    def evaluate_actions(self, obs, actions):
        logits, value = self(obs)
        dist = Categorical(logits=logits)
        return dist.log_prob(actions), dist.entropy(), value


class RolloutStorage:
    def __init__(self):
        self.obs, self.actions, self.log_probs, self.values, self.rewards, self.dones = [], [], [], [], [], []

    def add(self, obs, action, log_prob, value, reward, done):
        self.obs.append(obs)
        self.actions.append(action)
        self.log_probs.append(log_prob)
        self.values.append(value)
        self.rewards.append(reward)
        self.dones.append(done)

    def compute_gae(self, last_value, gamma=0.99, lam=0.95):
        values = torch.stack(self.values)
        rewards = torch.stack(self.rewards)
        dones = torch.stack(self.dones)
        advantages = torch.zeros_like(rewards)
        gae = torch.zeros_like(last_value)
        next_value = last_value
        for t in reversed(range(rewards.size(0))):
            delta = rewards[t] + gamma * next_value * (1.0 - dones[t]) - values[t]
            gae = delta + gamma * lam * (1.0 - dones[t]) * gae
            advantages[t] = gae
            next_value = values[t]
        returns = advantages + values
        return advantages, returns

    def flatten(self):
        obs = torch.stack(self.obs).flatten(0, 1)
        actions = torch.stack(self.actions).flatten(0, 1)
        log_probs = torch.stack(self.log_probs).flatten(0, 1)
        return obs, actions, log_probs


def collect_rollout(env, policy, num_steps, obs):
    storage = RolloutStorage()
    for _ in range(num_steps):
        action, log_prob, value = policy.act(obs)
        next_obs, reward, done = env.step(action)
        storage.add(obs, action, log_prob, value, reward, done)
        obs = next_obs
    _, _, last_value = policy.act(obs)
    return storage, last_value, obs
