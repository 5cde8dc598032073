"""Soft actor-critic update loop on random transitions."""
import torch
import torch.nn.functional as F

from model import GaussianPolicy, QNetwork
from utils import make_target, soft_update, sample_batch

OBS, ACT, GAMMA, ALPHA = 6, 2, 0.99, 0.2


class SACTrainer:
    def __init__(self):
        self.policy = GaussianPolicy(OBS, ACT)
        self.qf1, self.qf2 = QNetwork(OBS, ACT), QNetwork(OBS, ACT)
        self.tq1, self.tq2 = make_target(self.qf1), make_target(self.qf2)
        self.pi_opt = torch.optim.Adam(self.policy.parameters(), lr=3e-4)
        self.q1_opt = torch.optim.Adam(self.qf1.parameters(), lr=3e-4)
        self.q2_opt = torch.optim.Adam(self.qf2.parameters(), lr=3e-4)

    def train_step(self, b):
        with torch.no_grad():
            next_act, next_logp = self.policy(b["next_obs"])
            tq = torch.min(self.tq1(b["next_obs"], next_act), self.tq2(b["next_obs"], next_act))
            target = b["rew"] + GAMMA * (1 - b["done"]) * (tq - ALPHA * next_logp)
        q1_loss = F.mse_loss(self.qf1(b["obs"], b["act"]), target)
        q2_loss = F.mse_loss(self.qf2(b["obs"], b["act"]), target)

        self.q1_opt.zero_grad()
        q1_loss.backward()
        self.q1_opt.step()
        self.q2_opt.zero_grad()
        q2_loss.backward()
        self.q2_opt.step()


        new_act, log_pi = self.policy(b["obs"])
        q_new = torch.min(self.qf1(b["obs"], new_act), self.qf2(b["obs"], new_act))
        policy_loss = (ALPHA * log_pi - q_new).mean()
        self.pi_opt.zero_grad()
        policy_loss.backward()
        self.pi_opt.step()

        soft_update(self.tq1, self.qf1)
        soft_update(self.tq2, self.qf2)
        return policy_loss.item(), q1_loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = SACTrainer()
    for it in range(3):
        print(it, trainer.train_step(sample_batch(16, OBS, ACT)))
