import torch
import torch.nn as nn

torch.manual_seed(0)


class Logger:
    def __init__(self, alpha=0.9):
        self.alpha = alpha
        self.ema = {}

    def update(self, name, value):
        prev = self.ema.get(name)
        self.ema[name] = value if prev is None else self.alpha * prev + (1 - self.alpha) * value
        return self.ema[name]


class Policy(nn.Module):
    def __init__(self, state_dim=6, n_actions=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(state_dim, 32), nn.Tanh(), nn.Linear(32, n_actions))

    def forward(self, s):
        return torch.distributions.Categorical(logits=self.body(s))


def reward_fn(states, actions):
    return (states[:, 0] > 0).float() * (actions == 1).float() + 0.1 * torch.randn(len(actions))


def train(n_iters=6, batch=32):
    policy = Policy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    logger = Logger()
    baseline = 0.0  # running mean reward, kept as a python float
    for it in range(n_iters):
        states = torch.randn(batch, 6)
        dist = policy(states)
        actions = dist.sample()
        rewards = reward_fn(states, actions)
        loss = -((rewards - baseline) * dist.log_prob(actions)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        baseline = 0.9 * baseline + 0.1 * rewards.mean().item()
        smooth = logger.update("loss", loss.item())
        logger.update("reward", rewards.mean().item())
        print(f"it {it}: loss_ema {smooth:.4f} baseline {baseline:.4f}")


if __name__ == "__main__":
    train()
