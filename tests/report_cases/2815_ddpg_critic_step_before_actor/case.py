import copy
import torch
from core import MLPActorCritic

torch.manual_seed(0)
obs_dim, act_dim, gamma, polyak = 3, 1, 0.99, 0.995

main = MLPActorCritic(obs_dim, act_dim)
target = copy.deepcopy(main)
for p in target.parameters():
    p.requires_grad = False
pi_optimizer = torch.optim.Adam(main.policy.parameters(), lr=1e-3)
q_optimizer = torch.optim.Adam(main.q.parameters(), lr=1e-3)


class ReplayBuffer:
    def __init__(self, size=200):
        self.o = torch.randn(size, obs_dim)
        self.a = torch.rand(size, act_dim) * 2 - 1
        self.r = -self.o.pow(2).sum(1)
        self.o2 = self.o + 0.05 * self.a.sum(1, keepdim=True)
        self.d = torch.zeros(size)

    def sample_batch(self, batch_size=32):
        idx = torch.randint(0, len(self.o), (batch_size,))
        return dict(obs1=self.o[idx], obs2=self.o2[idx], acts=self.a[idx], rews=self.r[idx], done=self.d[idx])


def update(batch):
    x, x2, a, r, d = batch["obs1"], batch["obs2"], batch["acts"], batch["rews"], batch["done"]
    _, _, q_pi_targ = target(x2, a)
    backup = (r + gamma * (1 - d) * q_pi_targ).detach()
    pi, q, q_pi = main(x, a)
    pi_loss = -q_pi.mean()
    q_loss = ((q - backup) ** 2).mean()

    # Q-learning update
    q_optimizer.zero_grad()
    q_loss.backward()
    q_optimizer.step()

    # Policy update
    pi_optimizer.zero_grad()
    pi_loss.backward()
    pi_optimizer.step()

    with torch.no_grad():
        for p_main, p_targ in zip(main.parameters(), target.parameters()):
            p_targ.mul_(polyak).add_((1 - polyak) * p_main)
    return pi_loss.item(), q_loss.item()


replay_buffer = ReplayBuffer()
for t in range(5):
    print(t, update(replay_buffer.sample_batch()))
