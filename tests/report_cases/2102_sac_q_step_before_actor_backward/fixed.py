"""SAC (V-function variant) agent on a toy 1-D pendulum-like task.
Fixed: every optimizer.step() runs after all backward calls."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Normal


class ToyEnv:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.state = self.rng.normal(size=3).astype(np.float32)
        return self.state

    def step(self, action):
        self.state = (0.9 * self.state + 0.1 * action[0]).astype(np.float32)
        reward = -float(np.sum(self.state ** 2))
        return self.state, reward, bool(self.rng.random() < 0.05)


class ReplayBuffer:
    def __init__(self, obs_dim, size, batch_size):
        self.obs, self.next_obs = np.zeros((size, obs_dim), np.float32), np.zeros((size, obs_dim), np.float32)
        self.acts, self.rews, self.done = (np.zeros(size, np.float32) for _ in range(3))
        self.max_size, self.batch_size, self.ptr, self.size = size, batch_size, 0, 0

    def store(self, obs, act, rew, next_obs, done):
        i = self.ptr
        self.obs[i], self.acts[i], self.rews[i], self.next_obs[i], self.done[i] = obs, act, rew, next_obs, done
        self.ptr, self.size = (i + 1) % self.max_size, min(self.size + 1, self.max_size)

    def sample_batch(self):
        idx = np.random.choice(self.size, self.batch_size, replace=False)
        return {k: getattr(self, k)[idx] for k in ("obs", "next_obs", "acts", "rews", "done")}


class Actor(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.hidden = nn.Linear(in_dim, 32)
        self.mu, self.log_std = nn.Linear(32, out_dim), nn.Linear(32, out_dim)

    def forward(self, state):
        x = F.relu(self.hidden(state))
        dist = Normal(torch.tanh(self.mu(x)), self.log_std(x).clamp(-5, 2).exp())
        z = dist.rsample()
        action = torch.tanh(z)
        log_prob = (dist.log_prob(z) - torch.log(1 - action.pow(2) + 1e-7)).sum(-1, keepdim=True)
        return action, log_prob


def mlp(in_dim):
    return nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, 1))


class CriticQ(nn.Sequential):
    def __init__(self, in_dim):
        super().__init__(*mlp(in_dim))

    def forward(self, state, action):
        return super().forward(torch.cat((state, action), dim=-1))


class SACAgent:
    def __init__(self, env, obs_dim=3, action_dim=1, batch_size=16, gamma=0.99, tau=5e-3, policy_update_freq=2):
        self.env, self.gamma, self.tau, self.policy_update_freq = env, gamma, tau, policy_update_freq
        self.memory = ReplayBuffer(obs_dim, 1000, batch_size)
        self.target_entropy = -float(action_dim)
        self.log_alpha = torch.zeros(1, requires_grad=True)
        self.alpha_optimizer = optim.Adam([self.log_alpha], lr=3e-4)
        self.actor = Actor(obs_dim, action_dim)
        self.vf, self.vf_target = mlp(obs_dim), mlp(obs_dim)
        self.vf_target.load_state_dict(self.vf.state_dict())
        self.qf_1, self.qf_2 = CriticQ(obs_dim + action_dim), CriticQ(obs_dim + action_dim)
        self.actor_optimizer, self.vf_optimizer, self.qf_1_optimizer, self.qf_2_optimizer = (
            optim.Adam(m.parameters(), lr=3e-4) for m in (self.actor, self.vf, self.qf_1, self.qf_2))
        self.total_step = 0

    def update_model(self):
        s = self.memory.sample_batch()
        state, next_state = torch.FloatTensor(s["obs"]), torch.FloatTensor(s["next_obs"])
        action = torch.FloatTensor(s["acts"].reshape(-1, 1))
        reward, done = torch.FloatTensor(s["rews"].reshape(-1, 1)), torch.FloatTensor(s["done"].reshape(-1, 1))
        new_action, log_prob = self.actor(state)

        alpha_loss = (-self.log_alpha.exp() * (log_prob + self.target_entropy).detach()).mean()
        self.alpha_optimizer.zero_grad()
        alpha_loss.backward()
        self.alpha_optimizer.step()
        alpha = self.log_alpha.exp()

        mask = 1 - done
        q_1_pred, q_2_pred = self.qf_1(state, action), self.qf_2(state, action)
        q_target = reward + self.gamma * self.vf_target(next_state) * mask
        qf_1_loss = F.mse_loss(q_1_pred, q_target.detach())
        qf_2_loss = F.mse_loss(q_2_pred, q_target.detach())

        v_pred = self.vf(state)
        q_pred = torch.min(self.qf_1(state, new_action), self.qf_2(state, new_action))
        v_target = q_pred - alpha * log_prob
        vf_loss = F.mse_loss(v_pred, v_target.detach())

        if self.total_step % self.policy_update_freq == 0:
            advantage = q_pred - v_pred.detach()
            actor_loss = (alpha * log_prob - advantage).mean()
            self.actor_optimizer.zero_grad()
            actor_loss.backward()
        else:
            actor_loss = torch.zeros(1)

        # all backwards first, then all steps (the fix from the issue thread)
        self.qf_1_optimizer.zero_grad()
        qf_1_loss.backward()
        self.qf_2_optimizer.zero_grad()
        qf_2_loss.backward()
        self.vf_optimizer.zero_grad()
        vf_loss.backward()

        self.qf_1_optimizer.step()
        self.qf_2_optimizer.step()
        self.vf_optimizer.step()
        if self.total_step % self.policy_update_freq == 0:
            self.actor_optimizer.step()
            self._target_soft_update()
        return actor_loss.item(), (qf_1_loss + qf_2_loss).item(), vf_loss.item()

    def _target_soft_update(self):
        for t, l in zip(self.vf_target.parameters(), self.vf.parameters()):
            t.data.copy_(self.tau * l.data + (1.0 - self.tau) * t.data)

    def train(self, num_frames=60, initial_random_steps=20):
        state = self.env.reset()
        for self.total_step in range(1, num_frames + 1):
            if self.total_step < initial_random_steps:
                action = np.random.uniform(-1, 1, size=1).astype(np.float32)
            else:
                action = self.actor(torch.FloatTensor(state))[0].detach().numpy()
            next_state, reward, done = self.env.step(action)
            self.memory.store(state, action[0], reward, next_state, done)
            state = self.env.reset() if done else next_state
            if self.memory.size >= self.memory.batch_size and self.total_step > initial_random_steps:
                self.update_model()


if __name__ == "__main__":
    torch.manual_seed(0), np.random.seed(0)
    SACAgent(ToyEnv()).train()
