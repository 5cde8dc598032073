"""DDPG for a toy portfolio-allocation environment: critic update, then actor update through the
(just updated) critic, then soft target updates."""
import random
from collections import deque

import numpy as np
import torch
import torch.nn as nn

GAMMA = 0.99
TAU = 0.01
BATCH_SIZE = 8
REPLAY_START_SIZE = 16


class ActorNetwork(nn.Module):
    def __init__(self, state_dim, action_dim):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(state_dim, 32), nn.ReLU(), nn.Linear(32, action_dim), nn.Softmax(dim=-1))
        self.optimizer = torch.optim.Adam(self.actor.parameters(), lr=1e-3)

    def actor_action(self, state):
        return self.actor(state)


class CriticNetwork(nn.Module):
    def __init__(self, state_dim, action_dim):
        super().__init__()
        self.critic_net = nn.Sequential(nn.Linear(state_dim + action_dim, 32), nn.ReLU(), nn.Linear(32, 1))
        self.optimizer = torch.optim.Adam(self.critic_net.parameters(), lr=1e-3)
        self.loss_fn = nn.MSELoss()

    def critic(self, action, state):
        return self.critic_net(torch.cat([state, action], dim=-1))

    def train(self, y_batch, action_batch, state_batch):
        q = self.critic(action_batch, state_batch)
        loss = self.loss_fn(q, y_batch)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def soft_update(target, source, tau):
    with torch.no_grad():
        for t, s in zip(target.parameters(), source.parameters()):
            t.mul_(1 - tau).add_(tau * s)


class DDPG:
    def __init__(self, state_dim, action_dim):
        self.actor_network = ActorNetwork(state_dim, action_dim)
        self.critic_network = CriticNetwork(state_dim, action_dim)
        self.target_actor = ActorNetwork(state_dim, action_dim)
        self.target_critic = CriticNetwork(state_dim, action_dim)
        self.target_actor.load_state_dict(self.actor_network.state_dict())
        self.target_critic.load_state_dict(self.critic_network.state_dict())
        self.replay_buffer = deque(maxlen=10000)
        self.time_step = 0

    def train_on_batch(self):
        minibatch = random.sample(self.replay_buffer, BATCH_SIZE)
        state_batch = torch.tensor(np.array([d[0] for d in minibatch]), dtype=torch.float32)
        action_batch = torch.tensor(np.array([d[1] for d in minibatch]), dtype=torch.float32)
        reward_batch = torch.tensor([[d[2]] for d in minibatch], dtype=torch.float32)
        next_state_batch = torch.tensor(np.array([d[3] for d in minibatch]), dtype=torch.float32)
        done_batch = torch.tensor([[float(d[4])] for d in minibatch])

        with torch.no_grad():
            next_action = self.target_actor.actor_action(next_state_batch)
            q_value_batch = self.target_critic.critic(next_action, next_state_batch)
            y_batch = reward_batch + GAMMA * q_value_batch * (1 - done_batch)

        # for critic
        critic_loss = self.critic_network.train(y_batch, action_batch, state_batch)

        # for actor
        actor_loss = -self.critic_network.critic(self.actor_network.actor_action(state_batch), state_batch).mean()
        self.actor_network.optimizer.zero_grad()
        actor_loss.backward()
        self.actor_network.optimizer.step()

        soft_update(self.target_actor, self.actor_network, TAU)
        soft_update(self.target_critic, self.critic_network, TAU)
        return critic_loss, actor_loss.item()

    def perceive(self, state, action, reward, next_state, done):
        self.replay_buffer.append((state, action, reward, next_state, done))
        self.time_step += 1
        if len(self.replay_buffer) > REPLAY_START_SIZE:
            return self.train_on_batch()
        return None

    def noise_action(self, state):
        with torch.no_grad():
            action = self.actor_network.actor_action(torch.tensor(state, dtype=torch.float32)).numpy()
        action = np.clip(action + np.random.normal(0, 0.05, size=action.shape), 0, None)
        return action / action.sum()


if __name__ == '__main__':
    random.seed(0); np.random.seed(0); torch.manual_seed(0)
    n_assets = 3
    agent = DDPG(state_dim=n_assets * 2, action_dim=n_assets)
    prices = np.cumprod(1 + 0.01 * np.random.randn(60, n_assets), axis=0)
    losses = []
    for t in range(1, 30):
        returns = prices[t] / prices[t - 1] - 1
        state = np.concatenate([returns, prices[t] / prices[0]]).astype(np.float32)
        action = agent.noise_action(state)
        next_returns = prices[t + 1] / prices[t] - 1
        reward = float(np.dot(action, next_returns))
        next_state = np.concatenate([next_returns, prices[t + 1] / prices[0]]).astype(np.float32)
        out = agent.perceive(state, action, reward, next_state, False)
        if out is not None:
            losses.append(out)
    print('last losses (critic, actor):', np.round(losses[-1], 5), 'updates:', len(losses))
