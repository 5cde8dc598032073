import random

import torch
import torch.nn as nn
from torch.distributions import Categorical


class RolloutBuffer:
    def __init__(self):
        self.actions, self.states, self.logprobs, self.rewards, self.state_values, self.is_terminals = [], [], [], [], [], []

    def clear(self):
        for lst in (self.actions, self.states, self.logprobs, self.rewards, self.state_values, self.is_terminals):
            del lst[:]


class ActorCritic(nn.Module):
    def __init__(self, state_dim, action_dim, hidden=32):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(state_dim, hidden), nn.Tanh(), nn.Linear(hidden, action_dim), nn.Softmax(dim=-1))
        self.critic = nn.Sequential(nn.Linear(state_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def act(self, state):
        dist = Categorical(self.actor(state))
        action = dist.sample()
        return action.detach(), dist.log_prob(action).detach(), self.critic(state).detach()

    def evaluate(self, state, action):
        dist = Categorical(self.actor(state))
        return dist.log_prob(action), self.critic(state), dist.entropy()


class PPO:
    def __init__(self, state_dim, action_dim, lr_actor=3e-4, lr_critic=1e-3, gamma=0.99, K_epochs=4, eps_clip=0.2):
        self.gamma, self.eps_clip, self.K_epochs = gamma, eps_clip, K_epochs
        self.buffer = RolloutBuffer()
        self.policy = ActorCritic(state_dim, action_dim)
        self.actor_optimizer = torch.optim.Adam(self.policy.actor.parameters(), lr=lr_actor)
        self.critic_optimizer = torch.optim.Adam(self.policy.critic.parameters(), lr=lr_critic)
        self.policy_old = ActorCritic(state_dim, action_dim)
        self.policy_old.load_state_dict(self.policy.state_dict())
        self.MseLoss = nn.MSELoss()

    def select_action(self, state):
        with torch.no_grad():
            action, action_logprob, state_val = self.policy_old.act(state)
        self.buffer.states.append(state)
        self.buffer.actions.append(action)
        self.buffer.logprobs.append(action_logprob)
        self.buffer.state_values.append(state_val)
        return action.item()

    def update(self):
        rewards, discounted_reward = [], 0
        for reward, is_terminal in zip(reversed(self.buffer.rewards), reversed(self.buffer.is_terminals)):
            if is_terminal:
                discounted_reward = 0
            discounted_reward = reward + (self.gamma * discounted_reward)
            rewards.insert(0, discounted_reward)
        rewards = torch.tensor(rewards, dtype=torch.float32)
        rewards = (rewards - rewards.mean()) / (rewards.std() + 1e-7)

        old_states = torch.stack(self.buffer.states).detach()
        old_actions = torch.stack(self.buffer.actions).detach()
        old_logprobs = torch.stack(self.buffer.logprobs).detach()
        old_state_values = torch.stack(self.buffer.state_values).squeeze(-1).detach()
        advantages = rewards.detach() - old_state_values.detach()

        for _ in range(self.K_epochs):
            logprobs, state_values, dist_entropy = self.policy.evaluate(old_states, old_actions)
            state_values = torch.squeeze(state_values, -1)
            ratios = torch.exp(logprobs - old_logprobs.detach())
            surr1 = ratios * advantages
            surr2 = torch.clamp(ratios, 1 - self.eps_clip, 1 + self.eps_clip) * advantages
            actor_loss = (-torch.min(surr1, surr2) - 0.01 * dist_entropy).mean()
            critic_loss = 0.5 * self.MseLoss(state_values, rewards)

            self.actor_optimizer.zero_grad()
            self.critic_optimizer.zero_grad()
            (actor_loss + critic_loss).backward()
            self.actor_optimizer.step()
            self.critic_optimizer.step()

        self.policy_old.load_state_dict(self.policy.state_dict())
        self.buffer.clear()
        return actor_loss.item(), critic_loss.item()


def env_step(state, action):
    target = int(state.argmax()) % 2
    reward = 1.0 if action == target else -0.1
    nxt = torch.randn(4)
    return nxt, reward, random.random() < 0.1


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    agent = PPO(state_dim=4, action_dim=2)
    state = torch.randn(4)
    for update in range(3):
        for t in range(32):
            action = agent.select_action(state)
            state, reward, done = env_step(state, action)
            agent.buffer.rewards.append(reward)
            agent.buffer.is_terminals.append(done)
        a_loss, c_loss = agent.update()
        print(f"update {update}: actor {a_loss:.4f} critic {c_loss:.4f}")
