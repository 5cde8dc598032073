"""Episodic actor-critic (pytorch/examples reinforcement_learning/actor_critic.py layout)."""
import torch
import torch.nn.functional as F
from torch.distributions import Categorical

from model import Policy, SavedAction

torch.manual_seed(0)
GAMMA, EPS = 0.99, 1e-8
model = Policy()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-2)


def select_action(state):
    probs, state_value = model(state)
    m = Categorical(probs)
    action = m.sample()
    model.saved_actions.append(SavedAction(m.log_prob(action), state_value))
    return action.item()


def finish_episode():
    R, returns = 0.0, []
    policy_losses, value_losses = [], []
    for r in model.rewards[::-1]:
        R = r + GAMMA * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + EPS)
    for (log_prob, value), R in zip(model.saved_actions, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()
    del model.rewards[:]
    del model.saved_actions[:]


running_reward = 10.0
for i_episode in range(4):
    state, ep_reward = torch.randn(4), 0.0
    for t in range(1, 12):
        action = select_action(state)
        state = torch.randn(4)
        reward = 1.0 if action == int(state[0] > 0) else 0.0
        model.rewards.append(reward)
        ep_reward += reward
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    finish_episode()
    print(f"episode {i_episode} reward {ep_reward:.1f} running {running_reward:.2f}")
