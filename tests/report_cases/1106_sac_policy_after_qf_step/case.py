"""Soft Actor-Critic trainer (rlkit-style SACTrainer) on a toy continuous-control batch stream."""
import copy
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal

LOG_STD_MIN, LOG_STD_MAX = -20, 2


class ConcatMlp(nn.Module):
    def __init__(self, input_size, output_size, hidden_sizes=(64, 64)):
        super().__init__()
        sizes = [input_size, *hidden_sizes]
        self.fcs = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
        self.last_fc = nn.Linear(sizes[-1], output_size)

    def forward(self, *inputs):
        h = torch.cat(inputs, dim=1)
        for fc in self.fcs:
            h = F.relu(fc(h))
        return self.last_fc(h)


class TanhGaussianPolicy(nn.Module):
    def __init__(self, obs_dim, action_dim, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.mean = nn.Linear(hidden, action_dim)
        self.log_std = nn.Linear(hidden, action_dim)

    def forward(self, obs):
        h = self.trunk(obs)
        std = self.log_std(h).clamp(LOG_STD_MIN, LOG_STD_MAX).exp()
        normal = Normal(self.mean(h), std)
        pre_tanh = normal.rsample()
        action = torch.tanh(pre_tanh)
        log_prob = normal.log_prob(pre_tanh) - torch.log(1 - action.pow(2) + 1e-6)
        return action, log_prob.sum(dim=1, keepdim=True)


class SACTrainer:
    def __init__(self, env_spec, policy, qf1, qf2, discount=0.99, soft_target_tau=5e-3,
                 policy_lr=3e-4, qf_lr=3e-4, use_automatic_entropy_tuning=True):
        obs_dim, action_dim = env_spec
        self.policy, self.qf1, self.qf2 = policy, qf1, qf2
        self.target_qf1, self.target_qf2 = copy.deepcopy(qf1), copy.deepcopy(qf2)
        self.discount, self.soft_target_tau = discount, soft_target_tau
        self.use_automatic_entropy_tuning = use_automatic_entropy_tuning
        self.target_entropy = -float(action_dim)
        self.log_alpha = torch.zeros(1, requires_grad=True)
        self.alpha_optimizer = torch.optim.Adam([self.log_alpha], lr=policy_lr)
        self.policy_optimizer = torch.optim.Adam(self.policy.parameters(), lr=policy_lr)
        self.qf1_optimizer = torch.optim.Adam(self.qf1.parameters(), lr=qf_lr)
        self.qf2_optimizer = torch.optim.Adam(self.qf2.parameters(), lr=qf_lr)
        self.eval_statistics = OrderedDict()

    @property
    def alpha(self):
        return self.log_alpha.exp() if self.use_automatic_entropy_tuning else torch.ones(1)

    def _alpha_loss(self, log_pi):
        return -(self.log_alpha * (log_pi + self.target_entropy).detach()).mean()

    def _policy_loss(self, obs):
        new_obs_actions, log_pi = self.policy(obs)
        q_new_actions = torch.min(self.qf1(obs, new_obs_actions), self.qf2(obs, new_obs_actions))
        policy_loss = (self.alpha.detach() * log_pi - q_new_actions).mean()
        return policy_loss, log_pi

    def _qf_losses(self, batch):
        obs, actions, rewards = batch["observations"], batch["actions"], batch["rewards"]
        next_obs, terminals = batch["next_observations"], batch["terminals"]
        q1_pred = self.qf1(obs, actions)
        q2_pred = self.qf2(obs, actions)
        with torch.no_grad():
            new_next_actions, new_log_pi = self.policy(next_obs)
            target_q_values = torch.min(
                self.target_qf1(next_obs, new_next_actions),
                self.target_qf2(next_obs, new_next_actions),
            ) - self.alpha * new_log_pi
            q_target = rewards + (1.0 - terminals) * self.discount * target_q_values
        return F.mse_loss(q1_pred, q_target), F.mse_loss(q2_pred, q_target)

    @torch.no_grad()
    def _update_target_networks(self):
        for target, source in ((self.target_qf1, self.qf1), (self.target_qf2, self.qf2)):
            for tp, p in zip(target.parameters(), source.parameters()):
                tp.lerp_(p, self.soft_target_tau)

    def train_from_torch(self, batch):
        obs = batch["observations"]
        policy_loss, log_pi = self._policy_loss(obs)

        if self.use_automatic_entropy_tuning:
            alpha_loss = self._alpha_loss(log_pi)
            self.alpha_optimizer.zero_grad()
            alpha_loss.backward()
            self.alpha_optimizer.step()

        qf1_loss, qf2_loss = self._qf_losses(batch)

        self.qf1_optimizer.zero_grad()
        qf1_loss.backward()
        self.qf1_optimizer.step()

        self.qf2_optimizer.zero_grad()
        qf2_loss.backward()
        self.qf2_optimizer.step()

        self.policy_optimizer.zero_grad()
        policy_loss.backward()
        self.policy_optimizer.step()

        self._update_target_networks()
        self.eval_statistics.update(qf1=qf1_loss.item(), qf2=qf2_loss.item(), policy=policy_loss.item())


def batches(obs_dim, action_dim, batch_size=32):
    while True:
        obs = torch.randn(batch_size, obs_dim)
        yield {
            "observations": obs,
            "actions": torch.rand(batch_size, action_dim) * 2 - 1,
            "rewards": obs[:, :1],
            "next_observations": obs + 0.1 * torch.randn_like(obs),
            "terminals": torch.zeros(batch_size, 1),
        }


if __name__ == "__main__":
    torch.manual_seed(0)
    obs_dim, action_dim = 5, 2
    trainer = SACTrainer(
        (obs_dim, action_dim),
        policy=TanhGaussianPolicy(obs_dim, action_dim),
        qf1=ConcatMlp(obs_dim + action_dim, 1),
        qf2=ConcatMlp(obs_dim + action_dim, 1),
    )
    stream = batches(obs_dim, action_dim)
    for it in range(5):
        trainer.train_from_torch(next(stream))
        print(it, dict(trainer.eval_statistics))
