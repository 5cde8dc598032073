import numpy as np
import torch
import torch.nn.functional as F


def soft_update_params(net, target_net, tau):
    for param, target_param in zip(net.parameters(), target_net.parameters()):
        target_param.data.copy_(tau * param.data + (1 - tau) * target_param.data)


class RandomShiftsAug(torch.nn.Module):
    def __init__(self, pad):
        super().__init__()
        self.pad = pad

    def forward(self, x):
        n, c, h, w = x.size()
        x = F.pad(x, (self.pad,) * 4, mode="replicate")
        eps = 1.0 / (h + 2 * self.pad)
        arange = torch.linspace(-1.0 + eps, 1.0 - eps, h + 2 * self.pad)[:h]
        arange = arange.unsqueeze(0).repeat(h, 1).unsqueeze(2)
        base_grid = torch.cat([arange, arange.transpose(1, 0)], dim=2).unsqueeze(0).repeat(n, 1, 1, 1)
        shift = torch.randint(0, 2 * self.pad + 1, size=(n, 1, 1, 2)).float() * 2.0 / (h + 2 * self.pad)
        return F.grid_sample(x, base_grid + shift, padding_mode="zeros", align_corners=False)


class ReplayBuffer:
    def __init__(self, obs_shape, action_dim, skill_dim, size=256, seed=0):
        rng = np.random.default_rng(seed)
        self.obs = rng.integers(0, 255, (size, *obs_shape)).astype(np.float32)
        self.next_obs = rng.integers(0, 255, (size, *obs_shape)).astype(np.float32)
        self.action = rng.uniform(-1, 1, (size, action_dim)).astype(np.float32)
        self.reward = rng.normal(size=(size, 1)).astype(np.float32)
        self.discount = np.full((size, 1), 0.99, dtype=np.float32)
        skills = rng.uniform(0, 1, (size, skill_dim)).astype(np.float32)
        self.skill = skills
        self.rng = rng

    def sample(self, batch_size):
        idx = self.rng.integers(0, len(self.obs), batch_size)
        return tuple(torch.as_tensor(a[idx]) for a in
                     (self.obs, self.action, self.reward, self.discount, self.next_obs, self.skill))
