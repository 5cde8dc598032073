"""PPO with GAE on a small continuous control task (1-D point mass that has to
reach the origin).  Actor and critic are separate networks with separate
optimizers; the clipped surrogate and the clipped value loss are summed."""
import math
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)
GAMMA, LAMDA, CLIP, BATCH = 0.99, 0.95, 0.2, 16


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
        self.logstd = nn.Parameter(torch.zeros(1))

    def forward(self, s):
        mu = self.net(s)
        return mu, self.logstd.exp().expand_as(mu), self.logstd.expand_as(mu)


def log_density(x, mu, std, logstd):
    return (-(x - mu).pow(2) / (2 * std.pow(2)) - 0.5 * math.log(2 * math.pi) - logstd).sum(1, keepdim=True)


def rollout(actor, steps=64):
    memory, pos, vel = [], np.random.uniform(-1, 1), 0.0
    for t in range(steps):
        s = torch.tensor([[pos, vel]], dtype=torch.float32)
        with torch.no_grad():
            mu, std, _ = actor(s)
        a = float(torch.normal(mu, std))
        vel = 0.9 * vel + 0.1 * np.clip(a, -1, 1)
        pos += vel
        done = abs(pos) > 3 or t == steps - 1
        memory.append(([pos, vel], [a], -pos ** 2, 0.0 if done else 1.0))
        if done:
            pos, vel = np.random.uniform(-1, 1), 0.0
    return memory


def get_gae(rewards, masks, values):
    returns, advants = torch.zeros_like(rewards), torch.zeros_like(rewards)
    running_ret, prev_value, running_adv = 0.0, 0.0, 0.0
    for t in reversed(range(len(rewards))):
        running_ret = rewards[t] + GAMMA * running_ret * masks[t]
        td = rewards[t] + GAMMA * prev_value * masks[t] - values[t]
        running_adv = td + GAMMA * LAMDA * running_adv * masks[t]
        returns[t], advants[t], prev_value = running_ret, running_adv, values[t]
    return returns, (advants - advants.mean()) / (advants.std() + 1e-8)


def train_model(actor, critic, memory, actor_optim, critic_optim):
    states = torch.tensor([m[0] for m in memory], dtype=torch.float32)
    actions = torch.tensor([m[1] for m in memory], dtype=torch.float32)
    rewards = torch.tensor([m[2] for m in memory], dtype=torch.float32)
    masks = torch.tensor([m[3] for m in memory], dtype=torch.float32)
    with torch.no_grad():
        values = critic(states).squeeze(1)
        returns, advants = get_gae(rewards, masks, values)
        old_policy = log_density(actions, *actor(states))
        old_values = critic(states)
    n = len(states)
    for epoch in range(3):
        perm = torch.randperm(n)
        for i in range(n // BATCH):
            idx = perm[i * BATCH:(i + 1) * BATCH]
            new_policy = log_density(actions[idx], *actor(states[idx]))
            ratio = torch.exp(new_policy - old_policy[idx])
            adv = advants.unsqueeze(1)[idx]
            actor_loss = -torch.min(ratio * adv, ratio.clamp(1 - CLIP, 1 + CLIP) * adv).mean()

            v = critic(states[idx])
            v_clip = old_values[idx] + (v - old_values[idx]).clamp(-CLIP, CLIP)
            ret = returns.unsqueeze(1)[idx]
            critic_loss = torch.max((v - ret).pow(2), (v_clip - ret).pow(2)).mean()

            # the actor loss only sees the critic through the precomputed
            # (constant) advantages, so the actor can be stepped first and the
            # critic loss, whose graph never touches the actor, backpropagated after
            actor_optim.zero_grad()
            actor_loss.backward()
            actor_optim.step()

            critic_optim.zero_grad()
            critic_loss.backward()
            critic_optim.step()
    return (actor_loss + 0.5 * critic_loss).item()


def main():
    actor = Actor()
    critic = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
    actor_optim = torch.optim.Adam(actor.parameters(), lr=3e-4)
    critic_optim = torch.optim.Adam(critic.parameters(), lr=1e-3)
    for it in range(3):
        memory = rollout(actor)
        print(f"iter {it} return {sum(m[2] for m in memory):.2f} loss {train_model(actor, critic, memory, actor_optim, critic_optim):.3f}")


if __name__ == "__main__":
    main()
