import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)

N_CITIES, BATCH, HIDDEN = 6, 16, 32


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(2, HIDDEN)
        self.attn = nn.MultiheadAttention(HIDDEN, 4, batch_first=True)

    def forward(self, coords):
        h = self.embed(coords)
        a, _ = self.attn(h, h, h)
        return h + a


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.query = nn.Linear(2 * HIDDEN, HIDDEN)

    def forward(self, coords):
        enc = self.encoder(coords)
        graph = enc.mean(dim=1)
        mask = torch.zeros(coords.size(0), N_CITIES, dtype=torch.bool)
        current = enc[:, 0]
        mask[:, 0] = True
        tour, log_probs = [torch.zeros(coords.size(0), dtype=torch.long)], []
        for _ in range(N_CITIES - 1):
            q = self.query(torch.cat([graph, current], dim=1))
            logits = torch.einsum('bh,bnh->bn', q, enc) / HIDDEN ** 0.5
            logits = logits.masked_fill(mask, float('-inf'))
            dist = Categorical(logits=logits)
            idx = dist.sample()
            log_probs.append(dist.log_prob(idx))
            tour.append(idx)
            mask = mask.clone()
            mask[torch.arange(coords.size(0)), idx] = True
            current = enc[torch.arange(coords.size(0)), idx]
        return torch.stack(tour, 1), torch.stack(log_probs, 1).sum(1)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.head = nn.Sequential(nn.Linear(HIDDEN, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 1))

    def forward(self, coords):
        return self.head(self.encoder(coords).mean(dim=1)).squeeze(-1)


def tour_length(coords, tour):
    ordered = coords[torch.arange(coords.size(0)).unsqueeze(1), tour]
    return (ordered - ordered.roll(-1, dims=1)).norm(dim=2).sum(1)


class Trainer:
    def __init__(self):
        self.actor, self.critic = Actor(), Critic()
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=1e-3)

    def train_step(self, coords):
        tour, log_prob = self.actor(coords)
        reward = tour_length(coords, tour)
        predictions = self.critic(coords)

        actor_loss = ((reward - predictions.detach()) * log_prob).mean()
        critic_loss = F.mse_loss(predictions, reward)

        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()

        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()
        return reward.mean().item(), critic_loss.item()


trainer = Trainer()
for step in range(8):
    coords = torch.rand(BATCH, N_CITIES, 2)
    length, c_loss = trainer.train_step(coords)
    if step % 2 == 0:
        print('step %d  tour length %.3f  critic loss %.4f' % (step, length, c_loss))
