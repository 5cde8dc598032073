import copy
import random

import torch
import torch.nn.functional as F

from networks import ConcatMlp, TanhGaussianPolicy, soft_update_from_to
from replay import ReplayBuffer, fill_random


class SACTrainer:
    def __init__(self, policy, qf1, qf2, action_dim, discount=0.99, tau=5e-3, lr=3e-4):
        self.policy, self.qf1, self.qf2 = policy, qf1, qf2
        self.target_qf1 = copy.deepcopy(qf1)
        self.target_qf2 = copy.deepcopy(qf2)
        self.discount, self.tau = discount, tau
        self.target_entropy = -float(action_dim)
        self.log_alpha = torch.zeros(1, requires_grad=True)

        self.alpha_optimizer = torch.optim.Adam([self.log_alpha], lr=lr)
        self.policy_optimizer = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.qf1_optimizer = torch.optim.Adam(self.qf1.parameters(), lr=lr)
        self.qf2_optimizer = torch.optim.Adam(self.qf2.parameters(), lr=lr)

    def train_from_torch(self, batch):
        rewards = batch["rewards"]
        terminals = batch["terminals"]
        obs = batch["observations"]
        actions = batch["actions"]
        next_obs = batch["next_observations"]

        """
        Policy and Alpha Loss
        """
        new_obs_actions, log_pi = self.policy(obs)
        alpha_loss = -(self.log_alpha * (log_pi + self.target_entropy).detach()).mean()
        self.alpha_optimizer.zero_grad()
        alpha_loss.backward()
        self.alpha_optimizer.step()
        alpha = self.log_alpha.exp().detach()

        q_new_actions = torch.min(
            self.qf1(obs, new_obs_actions),
            self.qf2(obs, new_obs_actions),
        )
        policy_loss = (alpha * log_pi - q_new_actions).mean()

        """
        QF Loss
        """
        q1_pred = self.qf1(obs, actions)
        q2_pred = self.qf2(obs, actions)
        with torch.no_grad():
            new_next_actions, new_log_pi = self.policy(next_obs)
            target_q_values = torch.min(
                self.target_qf1(next_obs, new_next_actions),
                self.target_qf2(next_obs, new_next_actions),
            ) - alpha * new_log_pi
            q_target = rewards + (1.0 - terminals) * self.discount * target_q_values
        qf1_loss = F.mse_loss(q1_pred, q_target)
        qf2_loss = F.mse_loss(q2_pred, q_target)

        """
        Update networks
        """
        self.qf1_optimizer.zero_grad()
        qf1_loss.backward()
        self.qf1_optimizer.step()

        self.qf2_optimizer.zero_grad()
        qf2_loss.backward()
        self.qf2_optimizer.step()

        self.policy_optimizer.zero_grad()
        policy_loss.backward()
        self.policy_optimizer.step()

        soft_update_from_to(self.qf1, self.target_qf1, self.tau)
        soft_update_from_to(self.qf2, self.target_qf2, self.tau)
        return {"qf1": qf1_loss.item(), "qf2": qf2_loss.item(), "policy": policy_loss.item()}


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    obs_dim, action_dim = 6, 2
    buffer = ReplayBuffer()
    fill_random(buffer, obs_dim, action_dim, 256)
    trainer = SACTrainer(
        TanhGaussianPolicy(obs_dim, action_dim),
        ConcatMlp(obs_dim, action_dim),
        ConcatMlp(obs_dim, action_dim),
        action_dim,
    )
    for step in range(5):
        stats = trainer.train_from_torch(buffer.random_batch(32))
        print(step, stats)
