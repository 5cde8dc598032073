import torch
import torch.nn as nn

torch.manual_seed(0)


class Batch(dict):
    __getattr__ = dict.__getitem__


class ReplayBuffer:
    def __init__(self):
        self.items = []

    def add(self, **kw):
        self.items.append(kw)

    def sample(self):
        keys = self.items[0].keys()
        return Batch({k: torch.stack([torch.as_tensor(it[k]) for it in self.items]) for k in keys})

    def reset(self):
        self.items = []


class PGPolicy:
    def __init__(self, model, optim, gamma=0.99):
        self.model, self.optim, self.gamma = model, optim, gamma

    def dist(self, obs):
        return torch.distributions.Categorical(logits=self.model(obs))

    def forward(self, obs):
        with torch.no_grad():
            d = self.dist(obs)
            act = d.sample()
            return act, d.log_prob(act)

    def process_fn(self, batch):
        returns, R = torch.zeros_like(batch.rew), 0.0
        for i in reversed(range(len(batch.rew))):
            R = batch.rew[i] + self.gamma * R
            returns[i] = R
        batch["returns"] = (returns - returns.mean()) / (returns.std() + 1e-8)
        return batch

    def learn(self, batch, repeat=2):
        for _ in range(repeat):
            self.optim.zero_grad()
            log_prob = self.dist(batch.obs).log_prob(batch.act)
            loss = -(log_prob * batch.returns).mean()
            loss.backward()
            self.optim.step()


model = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))
policy = PGPolicy(model, torch.optim.Adam(model.parameters(), lr=1e-3))
buffer = ReplayBuffer()
for epoch in range(3):
    for step in range(10):
        obs = torch.randn(4)
        act, logp_old = policy.forward(obs)
        buffer.add(obs=obs, act=act, logp_old=logp_old, rew=torch.rand(()))
    policy.learn(policy.process_fn(buffer.sample()))
    buffer.reset()
