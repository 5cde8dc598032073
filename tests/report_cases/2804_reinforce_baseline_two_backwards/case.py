import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(0)


class ToyEnv:
    """Tiny stand-in for CartPole: 4-d state, 2 actions, episode of 12 steps."""
    def reset(self):
        self.t = 0
        self.s = torch.randn(4) * 0.1
        return self.s

    def step(self, a):
        self.t += 1
        self.s = self.s + (0.1 if a == 1 else -0.1) * torch.tensor([1.0, 0.5, -0.3, 0.2])
        reward = 1.0 if self.s.abs().max() < 1.0 else 0.0
        return self.s, reward, self.t >= 12


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 32)
        self.affine2 = nn.Linear(32, 2)
        self.saved_log_probs, self.rewards, self.states = [], [], []

    def forward(self, x):
        return F.softmax(self.affine2(F.relu(self.affine1(x))), dim=-1)


class StateValue(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)


policy, s_value_func = Policy(), StateValue()
alpha_theta, alpha_w, gamma = 1e-3, 1e-3, 0.99
optimizer_theta = optim.Adam(policy.parameters(), lr=alpha_theta)
optimizer_w = optim.Adam(s_value_func.parameters(), lr=alpha_w)
env = ToyEnv()


def select_action(state):
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    policy.states.append(state)
    return action.item()


def finish_episode():
    R, returns = 0, []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    for log_prob, G, state in zip(policy.saved_log_probs, returns, policy.states):
        delta = G - s_value_func(state)
        # update value network
        optimizer_w.zero_grad()
        policy_loss_w = -delta
        policy_loss_w.backward()
        optimizer_w.step()
        # update policy network with the same delta
        optimizer_theta.zero_grad()
        policy_loss_theta = -log_prob * delta
        policy_loss_theta.backward()
        optimizer_theta.step()
    del policy.saved_log_probs[:]
    del policy.rewards[:]
    del policy.states[:]


for i_episode in range(4):
    state, ep_reward = env.reset(), 0
    for t in range(100):
        action = select_action(state)
        state, reward, done = env.step(action)
        policy.rewards.append(reward)
        ep_reward += reward
        if done:
            break
    finish_episode()
    print("episode", i_episode, ep_reward)
