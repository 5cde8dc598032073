"""Advantage actor-critic with a shared observation encoder.

The actor optimizer owns the encoder and the policy head; the critic
optimizer owns the value head. Both losses come from one forward pass.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=8, n_actions=4, hidden=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.heads = nn.ModuleDict({
            "policy": nn.Linear(hidden, n_actions),
            "value": nn.Linear(hidden, 1),
        })

    def forward(self, obs):
        z = self.encoder(obs)
        return self.heads["policy"](z), self.heads["value"](z).squeeze(-1)


def rollout(steps=6, obs_dim=8):
    obs = torch.randn(steps, obs_dim)
    rewards = torch.randn(steps)
    returns = torch.flip(torch.cumsum(torch.flip(rewards, [0]), 0), [0])
    return obs, returns


def main():
    torch.manual_seed(0)
    ac = ActorCritic()
    actor_opt = torch.optim.RMSprop(
        list(ac.encoder.parameters()) + list(ac.heads["policy"].parameters()), lr=7e-4)
    critic_opt = torch.optim.RMSprop(ac.heads["value"].parameters(), lr=7e-4)

    for update in range(3):
        obs, returns = rollout()
        logits, values = ac(obs)
        dist = torch.distributions.Categorical(logits=logits)
        actions = dist.sample()
        advantage = returns - values
        actor_loss = -(dist.log_prob(actions) * advantage.detach()).mean() - 0.01 * dist.entropy().mean()
        critic_loss = F.mse_loss(values, returns)

        actor_opt.zero_grad()
        actor_loss.backward(retain_graph=True)
        actor_opt.step()

        critic_opt.zero_grad()
        critic_loss.backward()
        critic_opt.step()
        print(update, round(actor_loss.item(), 4), round(critic_loss.item(), 4))


if __name__ == "__main__":
    main()
