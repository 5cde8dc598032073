import copy

import numpy as np
import torch

from networks import ConcatMlp, TanhGaussianPolicy
from sac_trainer import SACTrainer

torch.manual_seed(0)
np.random.seed(0)

variant = dict(
    obs_dim=8,
    action_dim=2,
    batch_size=64,
    num_epochs=3,
    num_trains_per_epoch=15,
    trainer_kwargs=dict(discount=0.99, soft_target_tau=5e-3, policy_lr=3e-4, qf_lr=3e-4,
                        reward_scale=1.0, use_automatic_entropy_tuning=True),
)


class SimpleReplayBuffer:
    def __init__(self, obs_dim, action_dim, size=2000):
        self.obs = np.random.randn(size, obs_dim).astype(np.float32)
        self.actions = np.random.uniform(-1, 1, (size, action_dim)).astype(np.float32)
        self.next_obs = (self.obs + 0.1 * np.random.randn(size, obs_dim)).astype(np.float32)
        self.rewards = -np.linalg.norm(self.next_obs[:, :2] - self.actions, axis=1, keepdims=True).astype(np.float32)
        self.terminals = (np.random.rand(size, 1) < 0.02).astype(np.float32)

    def random_batch(self, batch_size):
        idx = np.random.randint(0, len(self.obs), batch_size)
        return {
            'observations': torch.from_numpy(self.obs[idx]),
            'actions': torch.from_numpy(self.actions[idx]),
            'next_observations': torch.from_numpy(self.next_obs[idx]),
            'rewards': torch.from_numpy(self.rewards[idx]),
            'terminals': torch.from_numpy(self.terminals[idx]),
        }


def experiment(variant):
    obs_dim, action_dim = variant['obs_dim'], variant['action_dim']
    qf1, qf2 = ConcatMlp(obs_dim, action_dim), ConcatMlp(obs_dim, action_dim)
    target_qf1, target_qf2 = copy.deepcopy(qf1), copy.deepcopy(qf2)
    policy = TanhGaussianPolicy(obs_dim, action_dim)
    trainer = SACTrainer(policy, qf1, qf2, target_qf1, target_qf2, action_dim, **variant['trainer_kwargs'])
    replay_buffer = SimpleReplayBuffer(obs_dim, action_dim)

    for epoch in range(variant['num_epochs']):
        for _ in range(variant['num_trains_per_epoch']):
            trainer.train_from_torch(replay_buffer.random_batch(variant['batch_size']))
        print(epoch, {k: round(v, 3) for k, v in trainer.eval_statistics.items()})


if __name__ == '__main__':
    experiment(variant)
