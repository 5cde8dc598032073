"""PPO with a recurrent (LSTM) critic on a partially observable toy task. Trajectories are processed in
fixed-size chunks; the optimizer evaluates the critic sequence-by-sequence to get value estimates and
carries the critic memory of each agent across chunks."""
from dataclasses import dataclass
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)

SETTINGS = dict(obs_dim=4, n_actions=2, hidden=32, time_horizon=16, buffer_chunks=2, n_chunks=8,
                gamma=0.99, lam=0.95, clip=0.2, lr=3e-4, epochs=2)


class RecurrentCritic(nn.Module):
    def __init__(self, obs_dim, hidden):
        super().__init__()
        self.hidden = hidden
        self.lstm = nn.LSTM(obs_dim, hidden, batch_first=True)
        self.value_head = nn.Linear(hidden, 1)

    def initial_memory(self):
        return torch.zeros(2, 1, 1, self.hidden)

    def forward(self, obs_seq, memory):
        out, (h, c) = self.lstm(obs_seq.unsqueeze(0), (memory[0], memory[1]))
        return self.value_head(out).squeeze(0).squeeze(-1), torch.stack([h, c])


class Actor(nn.Module):
    def __init__(self, obs_dim, hidden, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, n_actions))

    def forward(self, obs):
        return torch.distributions.Categorical(logits=self.net(obs))


@dataclass
class Chunk:
    obs: torch.Tensor
    actions: torch.Tensor
    log_probs: torch.Tensor
    advantages: torch.Tensor
    returns: torch.Tensor
    initial_memory: torch.Tensor


class BlinkEnv:
    """Observation reveals the rewarded action only every few steps."""

    def __init__(self, obs_dim):
        self.obs_dim, self.t, self.target = obs_dim, 0, 0

    def step(self, action=None):
        reward = 0.0 if action is None else float(action == self.target)
        self.t += 1
        if self.t % 4 == 1:
            self.target = np.random.randint(2)
        obs = np.random.randn(self.obs_dim).astype(np.float32) * 0.1
        if self.t % 4 == 1:
            obs[0] = 1.0 if self.target else -1.0
        return torch.from_numpy(obs), reward


class PPOOptimizer:
    def __init__(self, actor, critic, s):
        self.actor, self.critic, self.s = actor, critic, s
        self.optimizer = torch.optim.Adam(list(actor.parameters()) + list(critic.parameters()), lr=s["lr"])
        self.critic_memory_dict = {}

    def get_trajectory_value_estimates(self, obs_seq, agent_id):
        init_mem = self.critic_memory_dict.get(agent_id, self.critic.initial_memory())
        values, next_mem = self.critic(obs_seq, init_mem)
        self.critic_memory_dict[agent_id] = next_mem.detach()
        return values.detach().numpy(), init_mem

    def update(self, chunks):
        for _ in range(self.s["epochs"]):
            policy_losses, value_losses = [], []
            for ch in chunks:
                dist = self.actor(ch.obs)
                ratio = torch.exp(dist.log_prob(ch.actions) - ch.log_probs)
                surr = torch.min(ratio * ch.advantages, ratio.clamp(1 - self.s["clip"], 1 + self.s["clip"]) * ch.advantages)
                values, _ = self.critic(ch.obs, ch.initial_memory)
                policy_losses.append(-surr.mean())
                value_losses.append(F.mse_loss(values, ch.returns))
            loss = torch.stack(policy_losses).mean() + 0.5 * torch.stack(value_losses).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.item()


def gae(rewards, values, s):
    adv = np.zeros_like(rewards)
    last = 0.0
    for t in reversed(range(len(rewards))):
        next_v = values[t + 1] if t + 1 < len(values) else values[t]
        delta = rewards[t] + s["gamma"] * next_v - values[t]
        last = delta + s["gamma"] * s["lam"] * last
        adv[t] = last
    return adv, adv + values


def train(s):
    actor, critic = Actor(s["obs_dim"], s["hidden"], s["n_actions"]), RecurrentCritic(s["obs_dim"], s["hidden"])
    ppo = PPOOptimizer(actor, critic, s)
    env = BlinkEnv(s["obs_dim"])
    obs, _ = env.step()
    buffer = []
    for k in range(s["n_chunks"]):
        obs_l, act_l, lp_l, rew_l = [], [], [], []
        for t in range(s["time_horizon"]):
            with torch.no_grad():
                dist = actor(obs)
                a = dist.sample()
            obs_l.append(obs); act_l.append(a); lp_l.append(dist.log_prob(a))
            obs, r = env.step(int(a))
            rew_l.append(r)
        obs_seq = torch.stack(obs_l)
        values, init_mem = ppo.get_trajectory_value_estimates(obs_seq, agent_id="agent-0")
        adv, ret = gae(np.array(rew_l, dtype=np.float32), values, s)
        buffer.append(Chunk(obs_seq, torch.stack(act_l), torch.stack(lp_l), torch.from_numpy(adv),
                            torch.from_numpy(ret), init_mem))
        if len(buffer) == s["buffer_chunks"]:
            loss = ppo.update(buffer)
            buffer = []
            print(f"chunk {k}: loss={loss:.4f} mean_reward={np.mean(rew_l):.3f}")


if __name__ == "__main__":
    train(SETTINGS)
