import copy

import torch
import torch.nn.functional as F

from networks import GaussianPolicy, QNetwork


class SAC:
    def __init__(self, num_inputs, num_actions, args):
        self.gamma, self.tau, self.alpha = args["gamma"], args["tau"], args["alpha"]
        self.critic = QNetwork(num_inputs, num_actions, args["hidden_size"])
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=args["lr"])
        self.critic_target = copy.deepcopy(self.critic)
        self.policy = GaussianPolicy(num_inputs, num_actions, args["hidden_size"])
        self.policy_optim = torch.optim.Adam(self.policy.parameters(), lr=args["lr"])

    def update_parameters(self, memory, batch_size):
        state, action, reward, next_state, mask = memory.sample(batch_size)
        with torch.no_grad():
            next_action, next_log_pi = self.policy.sample(next_state)
            q1_t, q2_t = self.critic_target(next_state, next_action)
            min_q_next = torch.min(q1_t, q2_t) - self.alpha * next_log_pi
            next_q_value = reward + mask * self.gamma * min_q_next

        qf1, qf2 = self.critic(state, action)
        qf_loss = F.mse_loss(qf1, next_q_value) + F.mse_loss(qf2, next_q_value)

        pi, log_pi = self.policy.sample(state)
        qf1_pi, qf2_pi = self.critic(state, pi)
        policy_loss = ((self.alpha * log_pi) - torch.min(qf1_pi, qf2_pi)).mean()

        self.critic_optim.zero_grad()
        qf_loss.backward()
        self.critic_optim.step()

        self.policy_optim.zero_grad()
        policy_loss.backward()
        self.policy_optim.step()

        for tp, p in zip(self.critic_target.parameters(), self.critic.parameters()):
            tp.data.copy_(tp.data * (1.0 - self.tau) + p.data * self.tau)
        return qf_loss.item(), policy_loss.item()
