"""GFlowNet with trajectory balance on a small hypergrid; keeps exponential moving averages of the
terminal / non-terminal losses for logging and early stopping."""
import torch
import torch.nn as nn

torch.manual_seed(0)

CFG = dict(H=6, ndim=2, batch=16, iters=30, lr=1e-3, lr_logz=0.1, ema_alpha=0.9)


def reward(x, H):
    ax = (x.float() / (H - 1) - 0.5).abs()
    return 0.01 + 0.5 * ((ax > 0.25) & (ax <= 0.5)).all(-1).float() + 2.0 * ((ax > 0.3) & (ax < 0.4)).all(-1).float()


class Policy(nn.Module):
    def __init__(self, H, ndim, hidden=64):
        super().__init__()
        self.H, self.ndim = H, ndim
        self.net = nn.Sequential(nn.Linear(H * ndim, hidden), nn.LeakyReLU(), nn.Linear(hidden, ndim + 1))
        self.logZ = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        onehot = nn.functional.one_hot(x, self.H).float().flatten(1)
        return self.net(onehot)


class GFlowNetAgent:
    def __init__(self, cfg):
        self.cfg = cfg
        self.policy = Policy(cfg["H"], cfg["ndim"])
        params = [p for n, p in self.policy.named_parameters() if n != "logZ"]
        self.optimizer = torch.optim.Adam([{"params": params, "lr": cfg["lr"]},
                                           {"params": [self.policy.logZ], "lr": cfg["lr_logz"]}])
        self.ema_loss_term = None
        self.ema_loss_flow = None

    def sample_trajectories(self):
        H, ndim, bs = self.cfg["H"], self.cfg["ndim"], self.cfg["batch"]
        x = torch.zeros(bs, ndim, dtype=torch.long)
        log_pf = torch.zeros(bs)
        done = torch.zeros(bs, dtype=torch.bool)
        n_steps = torch.zeros(bs)
        while not done.all():
            logits = self.policy(x)
            mask = torch.cat([x == H - 1, torch.zeros(bs, 1, dtype=torch.bool)], 1)
            logits = logits.masked_fill(mask, -1e9)
            dist = torch.distributions.Categorical(logits=logits)
            a = dist.sample()
            log_pf = log_pf + torch.where(done, torch.zeros(bs), dist.log_prob(a))
            stop = (a == ndim) | done
            step = nn.functional.one_hot(a.clamp(max=ndim - 1), ndim) * (~stop).unsqueeze(-1)
            x = x + step
            n_steps = n_steps + (~done).float()
            done = stop
        return x, log_pf, n_steps

    def train(self):
        alpha = self.cfg["ema_alpha"]
        for it in range(self.cfg["iters"]):
            x, log_pf, n_steps = self.sample_trajectories()
            log_pb = -torch.lgamma(n_steps + 1)
            tb = (self.policy.logZ + log_pf - torch.log(reward(x, self.cfg["H"])) - log_pb).pow(2)
            loss = tb.mean()
            term_loss = tb[n_steps <= 1].mean() if (n_steps <= 1).any() else tb.new_zeros(())
            flow_loss = tb[n_steps > 1].mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            if self.ema_loss_term is None:
                self.ema_loss_term, self.ema_loss_flow = term_loss, flow_loss
            else:
                self.ema_loss_term = alpha * self.ema_loss_term + (1 - alpha) * term_loss
                self.ema_loss_flow = alpha * self.ema_loss_flow + (1 - alpha) * flow_loss
            if it % 10 == 0:
                print(f"it {it}: loss {loss.item():.3f} ema flow {float(self.ema_loss_flow):.3f} logZ {self.policy.logZ.item():.3f}")


if __name__ == "__main__":
    GFlowNetAgent(CFG).train()
