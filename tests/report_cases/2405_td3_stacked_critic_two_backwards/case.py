"""TD3 on a toy continuous task, adapted from a working DDPG script that kept
separate actor / critic optimizers."""
import argparse

import torch

from losses import TD3Loss
from networks import Actor, QValueEnsemble


class ReplayBuffer:
    def __init__(self, obs_dim, act_dim, size):
        self.obs = torch.randn(size, obs_dim)
        self.action = torch.rand(size, act_dim) * 2 - 1
        self.next_obs = self.obs * 0.9 + 0.1 * self.action.sum(-1, keepdim=True)
        self.reward = -self.next_obs.pow(2).sum(-1, keepdim=True)
        self.done = torch.zeros(size, 1)

    def sample(self, batch_size):
        idx = torch.randint(0, self.obs.shape[0], (batch_size,))
        return {k: getattr(self, k)[idx] for k in ("obs", "action", "next_obs", "reward", "done")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--obs_dim", type=int, default=5)
    parser.add_argument("--act_dim", type=int, default=2)
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--batch_size", type=int, default=128)
    parser.add_argument("--policy_delay", type=int, default=2)
    parser.add_argument("--tau", type=float, default=0.005)
    args = parser.parse_args()
    torch.manual_seed(0)

    actor = Actor(args.obs_dim, args.act_dim)
    qvalue = QValueEnsemble(args.obs_dim, args.act_dim)
    loss_module = TD3Loss(actor, qvalue)
    optim_actor = torch.optim.Adam(actor.parameters(), lr=3e-4)
    optim_critic = torch.optim.Adam(qvalue.parameters(), lr=3e-4)
    buffer = ReplayBuffer(args.obs_dim, args.act_dim, 5000)

    for i in range(args.frames):
        batch = buffer.sample(args.batch_size)
        loss = loss_module(batch)

        if i % args.policy_delay == 0:
            optim_actor.zero_grad()
            loss["loss_actor"].backward()
            optim_actor.step()

        optim_critic.zero_grad()
        loss["loss_qvalue"].backward()
        optim_critic.step()

        loss_module.update_targets(args.tau)
        if i % 10 == 0:
            print(f"frame {i} actor {loss['loss_actor'].item():.3f} q {loss['loss_qvalue'].item():.3f}")


if __name__ == "__main__":
    main()
