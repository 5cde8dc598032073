"""Synchronous n-step advantage actor-critic (A2C) on a toy contextual-bandit-with-state environment."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

NUM_ENVS, OBS_DIM, N_ACTIONS = 4, 5, 3
N_STEPS, UPDATES = 5, 4
GAMMA, VALUE_COEF, ENTROPY_COEF, MAX_GRAD_NORM = 0.99, 0.5, 0.01, 0.5


class Env:
    def __init__(self, seed=0):
        self.g = torch.Generator().manual_seed(seed)
        self.state = torch.randn(NUM_ENVS, OBS_DIM, generator=self.g)

    def step(self, actions):
        best = self.state[:, :N_ACTIONS].argmax(1)
        rewards = (actions == best).float()
        dones = torch.rand(NUM_ENVS, generator=self.g) < 0.1
        self.state = 0.9 * self.state + 0.1 * torch.randn(NUM_ENVS, OBS_DIM, generator=self.g)
        self.state[dones] = torch.randn(int(dones.sum()), OBS_DIM, generator=self.g)
        return self.state.clone(), rewards, dones.float()


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(OBS_DIM, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.actor = nn.Linear(64, N_ACTIONS)
        self.critic = nn.Linear(64, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return Categorical(logits=self.actor(h)), self.critic(h).squeeze(-1)


def main():
    torch.manual_seed(0)
    env = Env()
    model = ActorCritic()
    optimizer = torch.optim.RMSprop(model.parameters(), lr=7e-4, alpha=0.99, eps=1e-5)
    obs = env.state.clone()
    for update in range(UPDATES):
        log_probs, values, entropies, rewards, masks = [], [], [], [], []
        for _ in range(N_STEPS):
            dist, value = model(obs)
            action = dist.sample()
            obs, reward, done = env.step(action)
            log_probs.append(dist.log_prob(action))
            values.append(value)
            entropies.append(dist.entropy())
            rewards.append(reward)
            masks.append(1.0 - done)

        with torch.no_grad():
            _, next_value = model(obs)
        returns = []
        R = next_value
        for step in reversed(range(N_STEPS)):
            R = rewards[step] + GAMMA * R * masks[step]
            returns.insert(0, R)

        log_probs = torch.stack(log_probs)
        values = torch.stack(values)
        returns = torch.stack(returns)
        advantages = returns - values.detach()

        actor_loss = -(log_probs * advantages).mean()
        critic_loss = F.mse_loss(values, returns)
        entropy = torch.stack(entropies).mean()
        loss = actor_loss + VALUE_COEF * critic_loss - ENTROPY_COEF * entropy

        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), MAX_GRAD_NORM)
        optimizer.step()
        print(f"update {update}: actor {actor_loss.item():.3f} critic {critic_loss.item():.3f} "
              f"entropy {entropy.item():.3f} reward {torch.stack(rewards).mean().item():.2f}")


if __name__ == "__main__":
    main()
