# Minimal SAC-style update: target Q computed with autograd on but detached,
# critic stepped before a *fresh* actor forward; float episode returns.
import torch
import torch.nn as nn


class ToyEnv:
    def __init__(self, seed):
        self.g = torch.Generator().manual_seed(seed)
        self.training = True

    def eval(self):  # evaluation env: no exploration noise bookkeeping
        self.training = False
        return self

    def reset(self):
        return torch.randn(3, generator=self.g)

    def step(self, action):
        reward = float(-(action ** 2).sum())
        return torch.randn(3, generator=self.g), reward, False


def mlp(i, o):
    return nn.Sequential(nn.Linear(i, 32), nn.ReLU(), nn.Linear(32, o))


actor, critic, critic_targ = mlp(3, 1), mlp(4, 1), mlp(4, 1)
critic_targ.load_state_dict(critic.state_dict())
pi_opt = torch.optim.Adam(actor.parameters(), lr=3e-4)
q_opt = torch.optim.Adam(critic.parameters(), lr=3e-4)
alpha, gamma = 0.2, 0.99

env, eval_env = ToyEnv(0), ToyEnv(1).eval()
obs, ep_ret, buf = env.reset(), 0.0, []
for t in range(40):
    with torch.no_grad():
        act = torch.tanh(actor(obs)) + 0.1 * torch.randn(1)
    obs2, rew, done = env.step(act)
    ep_ret += rew
    buf.append((obs, act, rew, obs2))
    obs = obs2
    if len(buf) >= 8 and t % 4 == 0:
        o = torch.stack([b[0] for b in buf[-8:]])
        a = torch.stack([b[1] for b in buf[-8:]])
        r = torch.tensor([b[2] for b in buf[-8:]]).unsqueeze(1)
        o2 = torch.stack([b[3] for b in buf[-8:]])
        a2 = torch.tanh(actor(o2))
        target_q = r + gamma * (critic_targ(torch.cat([o2, a2], 1)) - alpha * a2.pow(2))
        q_loss = ((critic(torch.cat([o, a], 1)) - target_q.detach()) ** 2).mean()
        q_opt.zero_grad()
        q_loss.backward()
        q_opt.step()
        pi_a = torch.tanh(actor(o))
        pi_loss = (alpha * pi_a.pow(2) - critic(torch.cat([o, pi_a], 1))).mean()
        pi_opt.zero_grad()
        pi_loss.backward()
        pi_opt.step()
        with torch.no_grad():
            for p, p_t in zip(critic.parameters(), critic_targ.parameters()):
                p_t.mul_(0.995).add_(0.005 * p)
test_ret = 0.0
o = eval_env.reset()
for _ in range(5):
    with torch.no_grad():
        o, r, _ = eval_env.step(torch.tanh(actor(o)))
    test_ret += r
print("train return", ep_ret, "test return", test_ret)
