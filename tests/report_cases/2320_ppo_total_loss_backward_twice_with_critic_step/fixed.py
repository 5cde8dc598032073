"""PPO learner with separate actor and critic networks (medipixel-style
PPOLearner.update_model) trained on a synthetic continuous-control rollout.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Normal
from torch.nn.utils import clip_grad_norm_


class Brain(nn.Module):
    def __init__(self, in_dim, out_dim, hidden=(64, 64), gaussian=False):
        super().__init__()
        layers, d = [], in_dim
        for h in hidden:
            layers += [nn.Linear(d, h), nn.Tanh()]
            d = h
        self.backbone = nn.Sequential(*layers)
        self.head = nn.Linear(d, out_dim)
        self.gaussian = gaussian
        if gaussian:
            self.log_std = nn.Parameter(torch.zeros(out_dim))

    def forward(self, x):
        out = self.head(self.backbone(x))
        if self.gaussian:
            dist = Normal(torch.tanh(out), self.log_std.exp())
            return dist.sample(), dist
        return out


def compute_gae(next_value, rewards, masks, values, gamma=0.99, tau=0.95):
    values = values + [next_value]
    gae, returns = 0, []
    for step in reversed(range(len(rewards))):
        delta = rewards[step] + gamma * values[step + 1] * masks[step] - values[step]
        gae = delta + gamma * tau * masks[step] * gae
        returns.insert(0, gae + values[step])
    return returns


def ppo_iter(epoch, mini_batch_size, *tensors):
    batch_size = tensors[0].size(0)
    for _ in range(epoch):
        for _ in range(batch_size // mini_batch_size):
            rand_ids = np.random.choice(batch_size, mini_batch_size)
            yield tuple(t[rand_ids] for t in tensors)


class PPOLearner:
    def __init__(self, state_dim, action_dim, hyper_params):
        self.hp = hyper_params
        self.actor = Brain(state_dim, action_dim, gaussian=True)
        self.critic = Brain(state_dim, 1)
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=3e-4)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=1e-3)

    def update_model(self, experience, epsilon):
        states, actions, rewards, values, log_probs, next_state, masks = experience
        next_value = self.critic(next_state)
        returns = compute_gae(next_value, rewards, masks, values, self.hp["gamma"], self.hp["tau"])
        states, actions = torch.cat(states), torch.cat(actions)
        returns = torch.cat(returns).detach()
        values = torch.cat(values).detach()
        log_probs = torch.cat(log_probs).detach()
        advantages = returns - values
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-7)

        total_losses = []
        for state, action, old_log_prob, return_, adv in ppo_iter(
                self.hp["epoch"], self.hp["batch_size"], states, actions, log_probs, returns, advantages):
            _, dist = self.actor(state)
            log_prob = dist.log_prob(action)
            ratio = (log_prob - old_log_prob).exp()
            surr_loss = ratio * adv
            clipped_surr_loss = torch.clamp(ratio, 1.0 - epsilon, 1.0 + epsilon) * adv
            actor_loss = -torch.min(surr_loss, clipped_surr_loss).mean()
            value = self.critic(state)
            critic_loss = 0.5 * (return_ - value).pow(2).mean()
            entropy = dist.entropy().mean()
            total_loss = actor_loss + self.hp["w_value"] * critic_loss - self.hp["w_entropy"] * entropy

            # train actor and critic with one backward pass
            self.critic_optim.zero_grad()
            self.actor_optim.zero_grad()
            total_loss.backward()
            clip_grad_norm_(self.critic.parameters(), self.hp["gradient_clip_cr"])
            clip_grad_norm_(self.actor.parameters(), self.hp["gradient_clip_ac"])
            self.critic_optim.step()
            self.actor_optim.step()
            total_losses.append(total_loss.item())
        return sum(total_losses) / len(total_losses)


def rollout(learner, n_steps, n_envs, state_dim):
    states, actions, rewards, values, log_probs, masks = [], [], [], [], [], []
    state = torch.randn(n_envs, state_dim)
    for _ in range(n_steps):
        action, dist = learner.actor(state)
        value = learner.critic(state)
        reward = -(action - state[:, :action.shape[1]]).pow(2).sum(-1, keepdim=True)
        states.append(state); actions.append(action); values.append(value)
        log_probs.append(dist.log_prob(action)); rewards.append(reward)
        masks.append(torch.ones(n_envs, 1))
        state = torch.randn(n_envs, state_dim)
    return states, actions, rewards, values, log_probs, state, masks


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=3)
    args = parser.parse_args()
    hp = dict(gamma=0.99, tau=0.95, epoch=2, batch_size=32, w_value=1.0, w_entropy=1e-3,
              gradient_clip_ac=0.5, gradient_clip_cr=1.0)
    torch.manual_seed(0)
    np.random.seed(0)
    learner = PPOLearner(6, 2, hp)
    for ep in range(args.episodes):
        experience = rollout(learner, n_steps=16, n_envs=8, state_dim=6)
        print(ep, learner.update_model(experience, epsilon=0.2))


if __name__ == "__main__":
    main()
