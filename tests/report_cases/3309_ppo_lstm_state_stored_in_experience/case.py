"""Recurrent PPO on a toy partially observed grid task: rollouts fill an experience buffer that also
keeps the LSTM state at every step (used to seed the BPTT segments in the update)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

CFG = dict(num_envs=8, obs_dim=10, n_actions=4, hidden=32, rollout_len=16, epochs=2, updates=6, lr=3e-4)


class RecurrentPolicy(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden):
        super().__init__()
        self.encoder = nn.Linear(obs_dim, hidden)
        self.lstm = nn.LSTMCell(hidden, hidden)
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs, state):
        h, c = self.lstm(torch.relu(self.encoder(obs)), state)
        return self.pi(h), self.v(h).squeeze(-1), (h, c)


class Experience:
    def __init__(self, T, N, obs_dim, hidden):
        self.obs = torch.zeros(T, N, obs_dim)
        self.actions = torch.zeros(T, N, dtype=torch.long)
        self.logp = torch.zeros(T, N)
        self.values = torch.zeros(T, N)
        self.rewards = torch.zeros(T, N)
        self.lstm_h = [None] * T
        self.lstm_c = [None] * T

    def store(self, t, obs, action, logp, value, reward, state):
        self.obs[t], self.actions[t], self.rewards[t] = obs, action, reward
        self.logp[t], self.values[t] = logp.detach(), value.detach()
        self.lstm_h[t], self.lstm_c[t] = state


def env_step(obs, action):
    reward = (action == obs[:, :4].argmax(-1)).float()
    return torch.randn_like(obs), reward


class PPOTrainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.policy = RecurrentPolicy(cfg["obs_dim"], cfg["n_actions"], cfg["hidden"])
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=cfg["lr"])
        n, hdim = cfg["num_envs"], cfg["hidden"]
        self.state = (torch.zeros(n, hdim), torch.zeros(n, hdim))
        self.obs = torch.randn(n, cfg["obs_dim"])

    def rollout(self):
        cfg = self.cfg
        exp = Experience(cfg["rollout_len"], cfg["num_envs"], cfg["obs_dim"], cfg["hidden"])
        for t in range(cfg["rollout_len"]):
            state_in = self.state
            logits, value, self.state = self.policy(self.obs, state_in)
            dist = torch.distributions.Categorical(logits=logits)
            action = dist.sample()
            next_obs, reward = env_step(self.obs, action)
            exp.store(t, self.obs, action, dist.log_prob(action), value, reward, state_in)
            self.obs = next_obs
        return exp

    def update(self, exp, gamma=0.99):
        returns, running = torch.zeros_like(exp.rewards), torch.zeros(exp.rewards.size(1))
        for t in reversed(range(exp.rewards.size(0))):
            running = exp.rewards[t] + gamma * running
            returns[t] = running
        adv = returns - exp.values
        for _ in range(self.cfg["epochs"]):
            state = (exp.lstm_h[0].detach(), exp.lstm_c[0].detach())
            new_logp, new_v = [], []
            for t in range(exp.obs.size(0)):
                logits, v, state = self.policy(exp.obs[t], state)
                new_logp.append(torch.distributions.Categorical(logits=logits).log_prob(exp.actions[t]))
                new_v.append(v)
            ratio = (torch.stack(new_logp) - exp.logp).exp()
            pg = -torch.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean()
            loss = pg + 0.5 * F.mse_loss(torch.stack(new_v), returns)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.item()

    def train(self):
        for u in range(self.cfg["updates"]):
            exp = self.rollout()
            print(f"update {u}: loss {self.update(exp):.4f} reward {exp.rewards.mean().item():.3f}")


if __name__ == "__main__":
    PPOTrainer(CFG).train()
