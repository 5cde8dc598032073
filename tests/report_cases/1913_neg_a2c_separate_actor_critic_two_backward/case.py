"""Advantage actor-critic on a toy CartPole-like environment (tutorial notebook style).

The actor and the critic are two separate MLPs wrapped in one ActorCritic module.
update_policy() backpropagates the policy loss and the value loss one after the other
and then takes one optimizer step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributions as distributions

torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, dropout=0.1):
        super().__init__()
        self.fc_1 = nn.Linear(input_dim, hidden_dim)
        self.fc_2 = nn.Linear(hidden_dim, output_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.fc_2(self.dropout(F.relu(self.fc_1(x))))


class ActorCritic(nn.Module):
    def __init__(self, actor, critic):
        super().__init__()
        self.actor = actor
        self.critic = critic

    def forward(self, state):
        return self.actor(state), self.critic(state)


class ToyEnv:
    def reset(self):
        self.t = 0
        return torch.randn(4)

    def step(self, action):
        self.t += 1
        return torch.randn(4), float(action == 0), self.t >= 8


def train_episode(env, policy, optimizer, discount_factor):
    policy.train()
    log_prob_actions, values, rewards = [], [], []
    done, state = False, env.reset()
    while not done:
        action_pred, value_pred = policy(state.unsqueeze(0))
        dist = distributions.Categorical(F.softmax(action_pred, dim=-1))
        action = dist.sample()
        state, reward, done = env.step(action.item())
        log_prob_actions.append(dist.log_prob(action))
        values.append(value_pred)
        rewards.append(reward)
    log_prob_actions = torch.cat(log_prob_actions)
    values = torch.cat(values).squeeze(-1)
    returns = calculate_returns(rewards, discount_factor)
    policy_loss, value_loss = update_policy(returns, log_prob_actions, values, optimizer)
    return policy_loss, value_loss, sum(rewards)


def calculate_returns(rewards, discount_factor, normalize=True):
    returns, R = [], 0.0
    for r in reversed(rewards):
        R = r + R * discount_factor
        returns.insert(0, R)
    returns = torch.tensor(returns)
    return (returns - returns.mean()) / (returns.std() + 1e-8) if normalize else returns


def update_policy(returns, log_prob_actions, values, optimizer):
    returns = returns.detach()
    policy_loss = -(returns * log_prob_actions).sum()
    value_loss = F.smooth_l1_loss(returns, values).sum()
    optimizer.zero_grad()
    policy_loss.backward()
    value_loss.backward()
    optimizer.step()
    return policy_loss.item(), value_loss.item()


policy = ActorCritic(MLP(4, 32, 2), MLP(4, 32, 1))
optimizer = torch.optim.Adam(policy.parameters(), lr=0.01)
env = ToyEnv()
for episode in range(4):
    print(episode, train_episode(env, policy, optimizer, discount_factor=0.99))
