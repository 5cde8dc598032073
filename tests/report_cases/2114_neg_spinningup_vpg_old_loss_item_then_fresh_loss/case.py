"""Vanilla policy gradient (Spinning Up vpg.py layout): a numpy VPGBuffer with
GAE, an MLPActorCritic, and update() that first records the old losses as
floats, then builds fresh losses for the policy step and the value iterations."""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical


def discount_cumsum(x, discount):
    out = np.zeros_like(x)
    running = 0.0
    for t in reversed(range(len(x))):
        running = x[t] + discount * running
        out[t] = running
    return out


class VPGBuffer:
    def __init__(self, obs_dim, size, gamma=0.99, lam=0.97):
        self.obs_buf = np.zeros((size, obs_dim), dtype=np.float32)
        self.act_buf = np.zeros(size, dtype=np.int64)
        self.adv_buf = np.zeros(size, dtype=np.float32)
        self.rew_buf = np.zeros(size, dtype=np.float32)
        self.ret_buf = np.zeros(size, dtype=np.float32)
        self.val_buf = np.zeros(size, dtype=np.float32)
        self.logp_buf = np.zeros(size, dtype=np.float32)
        self.gamma, self.lam = gamma, lam
        self.ptr, self.path_start_idx, self.max_size = 0, 0, size

    def store(self, obs, act, rew, val, logp):
        i = self.ptr
        self.obs_buf[i], self.act_buf[i], self.rew_buf[i], self.val_buf[i], self.logp_buf[i] = obs, act, rew, val, logp
        self.ptr += 1

    def finish_path(self, last_val=0.0):
        path = slice(self.path_start_idx, self.ptr)
        rews = np.append(self.rew_buf[path], last_val)
        vals = np.append(self.val_buf[path], last_val)
        deltas = rews[:-1] + self.gamma * vals[1:] - vals[:-1]
        self.adv_buf[path] = discount_cumsum(deltas, self.gamma * self.lam)
        self.ret_buf[path] = discount_cumsum(rews, self.gamma)[:-1]
        self.path_start_idx = self.ptr

    def get(self):
        self.ptr, self.path_start_idx = 0, 0
        adv = (self.adv_buf - self.adv_buf.mean()) / (self.adv_buf.std() + 1e-8)
        data = dict(obs=self.obs_buf, act=self.act_buf, ret=self.ret_buf, adv=adv, logp=self.logp_buf)
        return {k: torch.as_tensor(v) for k, v in data.items()}


class MLPActorCritic(nn.Module):
    def __init__(self, obs_dim, n_act):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_act))
        self.v = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))

    def step(self, obs):
        with torch.no_grad():
            dist = Categorical(logits=self.pi(obs))
            a = dist.sample()
            return a.numpy(), self.v(obs).squeeze(-1).numpy(), dist.log_prob(a).numpy()


def vpg(steps_per_epoch=40, epochs=3, train_v_iters=5, obs_dim=4, n_act=2):
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    ac = MLPActorCritic(obs_dim, n_act)
    buf = VPGBuffer(obs_dim, steps_per_epoch)
    pi_optimizer = torch.optim.Adam(ac.pi.parameters(), lr=3e-4)
    vf_optimizer = torch.optim.Adam(ac.v.parameters(), lr=1e-3)

    def compute_loss_pi(data):
        obs, act, adv, logp_old = data["obs"], data["act"], data["adv"], data["logp"]
        logp = Categorical(logits=ac.pi(obs)).log_prob(act)
        loss_pi = -(logp * adv).mean()
        approx_kl = (logp_old - logp).mean().item()
        return loss_pi, dict(kl=approx_kl)

    def compute_loss_v(data):
        return ((ac.v(data["obs"]).squeeze(-1) - data["ret"]) ** 2).mean()

    def update():
        data = buf.get()
        pi_l_old, pi_info_old = compute_loss_pi(data)
        pi_l_old = pi_l_old.item()
        v_l_old = compute_loss_v(data).item()

        pi_optimizer.zero_grad()
        loss_pi, pi_info = compute_loss_pi(data)
        loss_pi.backward()
        pi_optimizer.step()

        for i in range(train_v_iters):
            vf_optimizer.zero_grad()
            loss_v = compute_loss_v(data)
            loss_v.backward()
            vf_optimizer.step()

        return dict(LossPi=pi_l_old, LossV=v_l_old, KL=pi_info["kl"],
                    DeltaLossPi=loss_pi.item() - pi_l_old, DeltaLossV=loss_v.item() - v_l_old)

    o = rng.normal(size=obs_dim).astype(np.float32)
    for epoch in range(epochs):
        for t in range(steps_per_epoch):
            a, v, logp = ac.step(torch.as_tensor(o))
            r = float(a == (o[0] > 0))
            buf.store(o, a, r, v, logp)
            o = rng.normal(size=obs_dim).astype(np.float32)
            if (t + 1) % 10 == 0:
                buf.finish_path(0.0)
        print(f"epoch {epoch}:", {k: round(v, 4) for k, v in update().items()})


if __name__ == "__main__":
    vpg()
