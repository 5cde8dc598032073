import copy

import torch
import torch.nn as nn


class TD3Loss(nn.Module):
    def __init__(self, actor, qvalue, gamma=0.99, policy_noise=0.2, noise_clip=0.5):
        super().__init__()
        self.actor, self.qvalue = actor, qvalue
        self.target_actor = copy.deepcopy(actor).requires_grad_(False)
        self.target_qvalue = copy.deepcopy(qvalue).requires_grad_(False)
        self.gamma, self.policy_noise, self.noise_clip = gamma, policy_noise, noise_clip

    @torch.no_grad()
    def _target_value(self, batch):
        next_act = self.target_actor(batch["next_obs"])
        noise = (torch.randn_like(next_act) * self.policy_noise).clamp(-self.noise_clip, self.noise_clip)
        next_act = (next_act + noise).clamp(-1, 1)
        next_q = self.target_qvalue(batch["next_obs"], next_act).min(0).values
        return batch["reward"] + self.gamma * (1 - batch["done"]) * next_q

    def forward(self, batch):
        """Both losses from ONE critic pass over [data actions; actor actions]."""
        obs, act = batch["obs"], batch["action"]
        n = obs.shape[0]
        actor_act = self.actor(obs)
        q_all = self.qvalue(torch.cat([obs, obs]), torch.cat([act, actor_act]))
        q_data, q_actor = q_all[:, :n], q_all[:, n:]
        target = self._target_value(batch)
        loss_qvalue = (q_data - target.unsqueeze(0)).pow(2).mean(1).sum()
        loss_actor = -q_actor[0].mean()
        return {"loss_actor": loss_actor, "loss_qvalue": loss_qvalue}

    def actor_loss(self, batch):
        return -self.qvalue(batch["obs"], self.actor(batch["obs"]))[0].mean()

    def qvalue_loss(self, batch):
        target = self._target_value(batch)
        q = self.qvalue(batch["obs"], batch["action"])
        return (q - target.unsqueeze(0)).pow(2).mean(1).sum()

    @torch.no_grad()
    def update_targets(self, tau):
        for src, dst in ((self.actor, self.target_actor), (self.qvalue, self.target_qvalue)):
            for p, p_t in zip(src.parameters(), dst.parameters()):
                p_t.lerp_(p, tau)
