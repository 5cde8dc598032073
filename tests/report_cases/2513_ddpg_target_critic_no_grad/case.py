import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)

criterion = nn.MSELoss()


def to_tensor(ndarray, requires_grad=False):
    return torch.from_numpy(ndarray).float().requires_grad_(requires_grad)


def soft_update(target, source, tau):
    for target_param, param in zip(target.parameters(), source.parameters()):
        target_param.data.copy_(target_param.data * (1.0 - tau) + param.data * tau)


def hard_update(target, source):
    for target_param, param in zip(target.parameters(), source.parameters()):
        target_param.data.copy_(param.data)


class Actor(nn.Module):
    def __init__(self, nb_states, nb_actions, hidden=32):
        super(Actor, self).__init__()
        self.fc1 = nn.Linear(nb_states, hidden)
        self.fc2 = nn.Linear(hidden, nb_actions)

    def forward(self, x):
        return torch.tanh(self.fc2(torch.relu(self.fc1(x))))


class Critic(nn.Module):
    def __init__(self, nb_states, nb_actions, hidden=32):
        super(Critic, self).__init__()
        self.fc1 = nn.Linear(nb_states, hidden)
        self.fc2 = nn.Linear(hidden + nb_actions, hidden)
        self.fc3 = nn.Linear(hidden, 1)

    def forward(self, xs):
        x, a = xs
        out = torch.relu(self.fc1(x))
        out = torch.relu(self.fc2(torch.cat([out, a], 1)))
        return self.fc3(out)


class DDPG(object):
    def __init__(self, nb_states, nb_actions, discount=0.99, tau=0.01):
        self.actor = Actor(nb_states, nb_actions)
        self.actor_target = Actor(nb_states, nb_actions)
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=1e-4)
        self.critic = Critic(nb_states, nb_actions)
        self.critic_target = Critic(nb_states, nb_actions)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        hard_update(self.actor_target, self.actor)
        hard_update(self.critic_target, self.critic)
        self.discount, self.tau = discount, tau

    def update_policy(self, batch):
        state_batch, action_batch, reward_batch, next_state_batch, terminal_batch = batch

        # Prepare for the target q batch
        next_q_values = self.critic_target([
            to_tensor(next_state_batch),
            self.actor_target(to_tensor(next_state_batch)),
        ])
        target_q_batch = to_tensor(reward_batch) + \
            self.discount * to_tensor(terminal_batch.astype(np.float32)) * next_q_values

        # Critic update
        self.critic.zero_grad()
        q_batch = self.critic([to_tensor(state_batch), to_tensor(action_batch)])
        value_loss = criterion(q_batch, target_q_batch)
        value_loss.backward()
        self.critic_optim.step()

        # Actor update
        self.actor.zero_grad()
        policy_loss = -self.critic([to_tensor(state_batch), self.actor(to_tensor(state_batch))])
        policy_loss = policy_loss.mean()
        policy_loss.backward()
        self.actor_optim.step()

        soft_update(self.actor_target, self.actor, self.tau)
        soft_update(self.critic_target, self.critic, self.tau)
        return value_loss.item(), policy_loss.item()


def sample_batch(n=32, nb_states=3, nb_actions=1):
    s = np.random.randn(n, nb_states).astype(np.float32)
    a = np.random.uniform(-1, 1, (n, nb_actions)).astype(np.float32)
    r = -(s ** 2).sum(1, keepdims=True).astype(np.float32)
    s2 = (s + 0.1 * np.random.randn(n, nb_states)).astype(np.float32)
    not_done = (np.random.rand(n, 1) > 0.05)
    return s, a, r, s2, not_done


agent = DDPG(3, 1)
for it in range(20):
    vl, pl = agent.update_policy(sample_batch())
    if it % 5 == 0:
        print('iter %d  value loss %.4f  policy loss %.4f' % (it, vl, pl))
