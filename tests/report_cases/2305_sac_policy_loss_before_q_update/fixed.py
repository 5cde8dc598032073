"""Soft actor-critic learning step on a random replay batch.

Organised like toshikwa/soft-actor-critic.pytorch: `calc_critic_loss` and
`calc_policy_loss` build the losses, `update_params` applies one optimizer.
"""
import argparse

import torch
import torch.nn as nn
from torch.distributions import Normal


def update_params(optim, network, loss, grad_clip=None, retain_graph=False):
    optim.zero_grad()
    loss.backward(retain_graph=retain_graph)
    if grad_clip is not None:
        for p in network.modules():
            torch.nn.utils.clip_grad_norm_(p.parameters(), grad_clip)
    optim.step()


class QNetwork(nn.Module):
    def __init__(self, num_inputs, num_actions, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(num_inputs + num_actions, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, s, a):
        return self.net(torch.cat([s, a], 1))


class TwinnedQNetwork(nn.Module):
    def __init__(self, num_inputs, num_actions):
        super().__init__()
        self.Q1 = QNetwork(num_inputs, num_actions)
        self.Q2 = QNetwork(num_inputs, num_actions)

    def forward(self, s, a):
        return self.Q1(s, a), self.Q2(s, a)


class GaussianPolicy(nn.Module):
    def __init__(self, num_inputs, num_actions, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(num_inputs, hidden), nn.ReLU())
        self.mean = nn.Linear(hidden, num_actions)
        self.log_std = nn.Linear(hidden, num_actions)

    def sample(self, s):
        h = self.body(s)
        mean, log_std = self.mean(h), self.log_std(h).clamp(-20, 2)
        normal = Normal(mean, log_std.exp())
        x = normal.rsample()
        action = torch.tanh(x)
        log_prob = normal.log_prob(x) - torch.log(1 - action.pow(2) + 1e-6)
        entropy = -log_prob.sum(1, keepdim=True)
        return action, entropy


class SacAgent:
    def __init__(self, obs_dim, act_dim, gamma=0.99, tau=0.005, alpha=0.2, grad_clip=None):
        self.policy = GaussianPolicy(obs_dim, act_dim)
        self.critic = TwinnedQNetwork(obs_dim, act_dim)
        self.critic_target = TwinnedQNetwork(obs_dim, act_dim)
        self.critic_target.load_state_dict(self.critic.state_dict())
        self.policy_optim = torch.optim.Adam(self.policy.parameters(), lr=3e-4)
        self.q1_optim = torch.optim.Adam(self.critic.Q1.parameters(), lr=3e-4)
        self.q2_optim = torch.optim.Adam(self.critic.Q2.parameters(), lr=3e-4)
        self.gamma, self.tau, self.alpha, self.grad_clip = gamma, tau, alpha, grad_clip

    def calc_critic_loss(self, batch):
        states, actions, rewards, next_states, dones = batch
        curr_q1, curr_q2 = self.critic(states, actions)
        with torch.no_grad():
            next_actions, next_entropies = self.policy.sample(next_states)
            nq1, nq2 = self.critic_target(next_states, next_actions)
            next_q = torch.min(nq1, nq2) + self.alpha * next_entropies
            target_q = rewards + (1.0 - dones) * self.gamma * next_q
        q1_loss = torch.mean((curr_q1 - target_q).pow(2))
        q2_loss = torch.mean((curr_q2 - target_q).pow(2))
        return q1_loss, q2_loss

    def calc_policy_loss(self, batch):
        states = batch[0]
        sampled_action, entropy = self.policy.sample(states)
        q1, q2 = self.critic(states, sampled_action)
        q = torch.min(q1, q2)
        policy_loss = torch.mean(-q - self.alpha * entropy)
        return policy_loss, entropy

    def soft_update(self):
        for t, s in zip(self.critic_target.parameters(), self.critic.parameters()):
            t.data.copy_(t.data * (1.0 - self.tau) + s.data * self.tau)

    def learn(self, batch):
        q1_loss, q2_loss = self.calc_critic_loss(batch)

        update_params(self.q1_optim, self.critic.Q1, q1_loss, self.grad_clip)
        update_params(self.q2_optim, self.critic.Q2, q2_loss, self.grad_clip)
        # the policy loss is built only after the critics have been updated
        policy_loss, entropies = self.calc_policy_loss(batch)
        update_params(self.policy_optim, self.policy, policy_loss, self.grad_clip)
        self.soft_update()
        return q1_loss.item(), q2_loss.item(), policy_loss.item()


def random_batch(n, obs_dim, act_dim):
    return (torch.randn(n, obs_dim), torch.rand(n, act_dim) * 2 - 1, torch.randn(n, 1),
            torch.randn(n, obs_dim), (torch.rand(n, 1) < 0.05).float())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--updates", type=int, default=10)
    parser.add_argument("--batch_size", type=int, default=64)
    args = parser.parse_args()
    torch.manual_seed(0)
    agent = SacAgent(obs_dim=8, act_dim=2)
    for i in range(args.updates):
        print(i, agent.learn(random_batch(args.batch_size, 8, 2)))


if __name__ == "__main__":
    main()
