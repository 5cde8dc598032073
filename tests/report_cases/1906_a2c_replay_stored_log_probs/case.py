"""Actor-critic agent extended with an experience-replay buffer.

choose_action() keeps the log-probability of the sampled action; the transition
(state, log_prob, reward, next_state, done) goes into the replay memory and learn()
trains on random minibatches drawn from it.
"""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
np.random.seed(0)


class ActorCriticNetwork(nn.Module):
    def __init__(self, input_dims, n_actions, fc_dims=64):
        super().__init__()
        self.fc1 = nn.Linear(input_dims, fc_dims)
        self.pi = nn.Linear(fc_dims, n_actions)
        self.v = nn.Linear(fc_dims, 1)

    def forward(self, state):
        x = F.relu(self.fc1(state))
        return self.pi(x), self.v(x)


class ReplayMemory:
    def __init__(self, size):
        self.size = size
        self.transitions = []

    def store(self, state, log_prob, reward, state_, done):
        if len(self.transitions) >= self.size:
            self.transitions.pop(0)
        self.transitions.append((state, log_prob, reward, state_, done))

    def sample(self, batch_size):
        return random.sample(self.transitions, batch_size)


class Agent:
    def __init__(self, input_dims, n_actions, gamma=0.99, lr=5e-4, batch_size=4):
        self.gamma = gamma
        self.batch_size = batch_size
        self.actor_critic = ActorCriticNetwork(input_dims, n_actions)
        self.optimizer = torch.optim.Adam(self.actor_critic.parameters(), lr=lr)
        self.memory = ReplayMemory(100)

    def choose_action(self, observation):
        state = torch.tensor(observation, dtype=torch.float32)
        logits, _ = self.actor_critic(state)
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()
        return action.item(), dist.log_prob(action)

    def learn(self):
        if len(self.memory.transitions) < self.batch_size:
            return None
        batch = self.memory.sample(self.batch_size)
        states = torch.tensor(np.array([b[0] for b in batch]), dtype=torch.float32)
        log_probs = torch.stack([b[1] for b in batch])
        rewards = torch.tensor([b[2] for b in batch], dtype=torch.float32)
        states_ = torch.tensor(np.array([b[3] for b in batch]), dtype=torch.float32)
        dones = torch.tensor([b[4] for b in batch], dtype=torch.float32)

        _, values = self.actor_critic(states)
        _, values_ = self.actor_critic(states_)
        delta = rewards + self.gamma * values_.squeeze(-1) * (1 - dones) - values.squeeze(-1)
        actor_loss = -(log_probs * delta.detach()).mean()
        critic_loss = (delta ** 2).mean()

        self.optimizer.zero_grad()
        (actor_loss + critic_loss).backward()
        self.optimizer.step()
        return actor_loss.item(), critic_loss.item()


agent = Agent(input_dims=6, n_actions=3)
observation = np.random.randn(6)
for step in range(12):
    action, log_prob = agent.choose_action(observation)
    observation_ = np.random.randn(6)
    reward, done = float(action == 1), step % 5 == 4
    agent.memory.store(observation, log_prob, reward, observation_, done)
    print(step, agent.learn())
    observation = np.random.randn(6) if done else observation_
