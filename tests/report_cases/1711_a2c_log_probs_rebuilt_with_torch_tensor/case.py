import math
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
np.random.seed(0)


class CartPole:
    gravity, masscart, masspole, length, force_mag, tau = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02

    def reset(self):
        self.state = np.random.uniform(-0.05, 0.05, size=4)
        return self.state.astype(np.float32)

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = self.force_mag if action == 1 else -self.force_mag
        costheta, sintheta = math.cos(theta), math.sin(theta)
        total_mass = self.masspole + self.masscart
        polemass_length = self.masspole * self.length
        temp = (force + polemass_length * theta_dot ** 2 * sintheta) / total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * costheta ** 2 / total_mass))
        xacc = temp - polemass_length * thetaacc * costheta / total_mass
        x, x_dot = x + self.tau * x_dot, x_dot + self.tau * xacc
        theta, theta_dot = theta + self.tau * theta_dot, theta_dot + self.tau * thetaacc
        self.state = np.array([x, x_dot, theta, theta_dot])
        done = abs(x) > 2.4 or abs(theta) > 12 * 2 * math.pi / 360
        return self.state.astype(np.float32), 1.0, done


@dataclass
class AlgoSpec:
    gamma: float = 0.99
    entropy_coef: float = 0.01
    val_loss_coef: float = 0.5
    actor_lr: float = 3e-3
    critic_lr: float = 5e-3
    hid_layers: list = field(default_factory=lambda: [64])
    max_episodes: int = 12


def build_mlp(in_dim, hid_layers, out_dim):
    dims = [in_dim] + hid_layers
    layers = []
    for a, b in zip(dims[:-1], dims[1:]):
        layers += [nn.Linear(a, b), nn.SELU()]
    layers.append(nn.Linear(dims[-1], out_dim))
    return nn.Sequential(*layers)


class Body:
    """Per-episode storage, like SLM-Lab's agent body."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.log_probs, self.entropies, self.rewards, self.states = [], [], [], []


class ActorCritic:
    def __init__(self, spec: AlgoSpec, state_dim: int, action_dim: int):
        self.spec = spec
        self.actor = build_mlp(state_dim, spec.hid_layers, action_dim)
        self.critic = build_mlp(state_dim, spec.hid_layers, 1)
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=spec.actor_lr)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=spec.critic_lr)
        self.body = Body()

    def act(self, state):
        state_t = torch.from_numpy(state)
        pdparam = self.actor(state_t)
        pd = Categorical(logits=pdparam)
        action = pd.sample()
        self.body.log_probs.append(pd.log_prob(action))
        self.body.entropies.append(pd.entropy())
        self.body.states.append(state_t)
        return action.item()

    def calc_returns(self):
        rets, future = [], 0.0
        for r in reversed(self.body.rewards):
            future = r + self.spec.gamma * future
            rets.insert(0, future)
        return torch.tensor(rets)

    def calc_policy_loss(self, advs):
        log_probs = torch.tensor(self.body.log_probs)
        entropies = torch.tensor(self.body.entropies)
        policy_loss = -(log_probs * advs).mean()
        return policy_loss - self.spec.entropy_coef * entropies.mean()

    def calc_val_loss(self, v_preds, v_targets):
        return self.spec.val_loss_coef * F.smooth_l1_loss(v_preds, v_targets)

    def train(self):
        states = torch.stack(self.body.states)
        v_targets = self.calc_returns()
        v_preds = self.critic(states).squeeze(-1)
        advs = (v_targets - v_preds).detach()
        loss = self.calc_policy_loss(advs) + self.calc_val_loss(v_preds, v_targets)
        self.actor_optim.zero_grad()
        self.critic_optim.zero_grad()
        loss.backward()
        self.actor_optim.step()
        self.critic_optim.step()
        self.body.reset()
        return loss.item()


if __name__ == '__main__':
    spec = AlgoSpec()
    env = CartPole()
    agent = ActorCritic(spec, state_dim=4, action_dim=2)
    for epi in range(spec.max_episodes):
        state, done, total_reward = env.reset(), False, 0.0
        while not done and total_reward < 200:
            state, reward, done = env.step(agent.act(state))
            agent.body.rewards.append(reward)
            total_reward += reward
        loss = agent.train()
        print(f'episode {epi} reward {total_reward:.0f} loss {loss:.3f}')
