"""Minimal composer-style Trainer; the model's loss() may return a single loss or a tuple."""
from dataclasses import dataclass, field
from typing import Any, List

import torch
import torch.nn as nn
import torch.nn.functional as F


def ensure_tuple(x):
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return (x,)


class ComposerModel(nn.Module):
    def forward(self, batch):
        raise NotImplementedError

    def loss(self, outputs, batch):
        raise NotImplementedError


class MultiTaskAutoencoder(ComposerModel):
    """Shared encoder; a classification head and a reconstruction head."""

    def __init__(self, in_dim=12, latent=6, n_classes=3):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 16), nn.ReLU(), nn.Linear(16, latent))
        self.decoder = nn.Sequential(nn.Linear(latent, 16), nn.ReLU(), nn.Linear(16, in_dim))
        self.head = nn.Linear(latent, n_classes)

    def forward(self, batch):
        x, _ = batch
        z = self.encoder(x)
        return self.head(z), self.decoder(z)

    def loss(self, outputs, batch):
        logits, recon = outputs
        x, y = batch
        return F.cross_entropy(logits, y), 0.5 * F.mse_loss(recon, x)


@dataclass
class State:
    model: ComposerModel
    optimizers: List[torch.optim.Optimizer]
    batch: Any = None
    outputs: Any = None
    loss: Any = None
    timestamp: dict = field(default_factory=lambda: {'batch': 0, 'epoch': 0})


class Trainer:
    def __init__(self, model, train_dataloader, max_duration=2, lr=1e-2, grad_accum=2):
        optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.state = State(model=model, optimizers=[optimizer])
        self.train_dataloader = train_dataloader
        self.max_duration = max_duration
        self.grad_accum = grad_accum
        self.logged = []

    def fit(self):
        self.state.model.train()
        for epoch in range(self.max_duration):
            for batch in self.train_dataloader:
                self.state.batch = batch
                self._train_batch()
                self.state.timestamp['batch'] += 1
            self.state.timestamp['epoch'] += 1

    def _train_batch(self):
        for optimizer in self.state.optimizers:
            optimizer.zero_grad()
        x, y = self.state.batch
        microbatches = zip(x.chunk(self.grad_accum), y.chunk(self.grad_accum))
        total_loss = 0.0
        for microbatch in microbatches:
            total_loss += self._train_microbatch(microbatch, x.size(0))
        for optimizer in self.state.optimizers:
            optimizer.step()
        self.logged.append({'loss/train': total_loss, 'batch': self.state.timestamp['batch']})

    def _train_microbatch(self, microbatch, current_batch_size):
        microbatch_num_samples = microbatch[0].size(0)
        self.state.outputs = self.state.model(microbatch)
        self.state.loss = self.state.model.loss(self.state.outputs, microbatch)

        total_loss = 0.0
        for loss in ensure_tuple(self.state.loss):
            loss.mul_(microbatch_num_samples / current_batch_size)
            total_loss += loss.item()

        # sum the losses and run a single backward through the shared graph
        loss = sum(ensure_tuple(self.state.loss))
        loss.backward(create_graph=False, retain_graph=False)
        return total_loss


if __name__ == '__main__':
    torch.manual_seed(0)
    x = torch.randn(32, 12)
    y = torch.randint(0, 3, (32,))
    loader = [(x[i:i + 8], y[i:i + 8]) for i in range(0, 32, 8)]
    trainer = Trainer(MultiTaskAutoencoder(), loader)
    trainer.fit()
    print(trainer.logged[-1])
