"""Recurrent Attention Model (recurrent-visual-attention layout): the retina
crops glimpses from the input image with numpy at a sampled location; the
glimpse/core/action networks learn by backprop, the location network by
REINFORCE, with a learned baseline.  Synthetic 16x16 "digits"."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal


class Retina:
    def __init__(self, g=4):
        self.g = g

    def foveate(self, x, l):
        # x: [B, 1, H, W] tensor (data, no grad); l: [B, 2] in [-1, 1]
        imgs, locs = x.numpy(), l.numpy()
        B, _, H, W = imgs.shape
        out = np.zeros((B, 1, self.g, self.g), dtype=np.float32)
        padded = np.pad(imgs, ((0, 0), (0, 0), (self.g, self.g), (self.g, self.g)))
        for b in range(B):
            cy = int((locs[b, 0] + 1) / 2 * H) + self.g // 2
            cx = int((locs[b, 1] + 1) / 2 * W) + self.g // 2
            out[b] = padded[b, :, cy:cy + self.g, cx:cx + self.g]
        return torch.from_numpy(out).flatten(1)


class GlimpseNetwork(nn.Module):
    def __init__(self, g, h_g=16, h_l=8):
        super().__init__()
        self.retina = Retina(g)
        self.fc1, self.fc2 = nn.Linear(g * g, h_g), nn.Linear(2, h_l)
        self.fc3, self.fc4 = nn.Linear(h_g, h_g + h_l), nn.Linear(h_l, h_g + h_l)

    def forward(self, x, l_t_prev):
        phi = self.retina.foveate(x, l_t_prev)
        phi_out, l_out = F.relu(self.fc1(phi)), F.relu(self.fc2(l_t_prev))
        return F.relu(self.fc3(phi_out) + self.fc4(l_out))


class LocationNetwork(nn.Module):
    def __init__(self, input_size, std=0.2):
        super().__init__()
        self.std = std
        self.fc = nn.Linear(input_size, 2)

    def forward(self, h_t):
        mu = torch.tanh(self.fc(h_t.detach()))
        l_t = torch.distributions.Normal(mu, self.std).rsample().detach()
        log_pi = Normal(mu, self.std).log_prob(l_t).sum(dim=1)
        return log_pi, torch.clamp(l_t, -1, 1)


class RecurrentAttention(nn.Module):
    def __init__(self, g=4, hidden=24, num_classes=3):
        super().__init__()
        self.sensor = GlimpseNetwork(g)
        self.rnn = nn.RNNCell(hidden, hidden)
        self.locator = LocationNetwork(hidden)
        self.classifier = nn.Linear(hidden, num_classes)
        self.baseliner = nn.Linear(hidden, 1)

    def forward(self, x, l_t_prev, h_t_prev, last=False):
        g_t = self.sensor(x, l_t_prev)
        h_t = self.rnn(g_t, h_t_prev)
        log_pi, l_t = self.locator(h_t)
        b_t = self.baseliner(h_t.detach()).squeeze(1)
        if last:
            return h_t, l_t, b_t, F.log_softmax(self.classifier(h_t), dim=1), log_pi
        return h_t, l_t, b_t, log_pi


def train_one_epoch(model, optimizer, batches, num_glimpses=4, hidden=24):
    for x, y in batches:
        B = x.shape[0]
        h_t, l_t = torch.zeros(B, hidden), torch.empty(B, 2).uniform_(-1, 1)
        log_pi, baselines = [], []
        for t in range(num_glimpses - 1):
            h_t, l_t, b_t, p = model(x, l_t, h_t)
            baselines.append(b_t)
            log_pi.append(p)
        h_t, l_t, b_t, log_probas, p = model(x, l_t, h_t, last=True)
        log_pi.append(p)
        baselines.append(b_t)
        baselines, log_pi = torch.stack(baselines, 1), torch.stack(log_pi, 1)

        predicted = torch.max(log_probas, 1)[1]
        R = (predicted.detach() == y).float().unsqueeze(1).repeat(1, num_glimpses)
        loss_action = F.nll_loss(log_probas, y)
        loss_baseline = F.mse_loss(baselines, R)
        adjusted_reward = R - baselines.detach()
        loss_reinforce = torch.mean(torch.sum(-log_pi * adjusted_reward, dim=1))
        loss = loss_action + loss_baseline + 0.01 * loss_reinforce

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"loss {loss.item():.4f} acc {(predicted == y).float().mean().item():.2f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    batches = []
    for _ in range(4):
        y = torch.randint(0, 3, (6,))
        x = torch.rand(6, 1, 16, 16) * 0.2
        x[torch.arange(6), 0, 4 * y + 2, 4 * y + 2] = 1.0
        batches.append((x, y))
    model = RecurrentAttention()
    train_one_epoch(model, torch.optim.Adam(model.parameters(), lr=3e-4), batches)
