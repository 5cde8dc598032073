import argparse
import logging

import torch
import torch.nn as nn

from ace_buffer import create_training_buffer, iterate_buffer

_logger = logging.getLogger(__name__)
logging.basicConfig(level=logging.INFO)


class Encoder(nn.Module):
    def __init__(self, out_channels=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 8, 3, stride=2, padding=1), nn.ReLU(),
                                 nn.Conv2d(8, out_channels, 3, stride=2, padding=1), nn.ReLU())

    def forward(self, x):
        return self.net(x)


class Head(nn.Module):
    def __init__(self, in_channels=16, mean=torch.zeros(3)):
        super().__init__()
        self.register_buffer('mean', mean.clone())
        self.res = nn.Sequential(nn.Linear(in_channels, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.out = nn.Linear(32, 3)

    def forward(self, feats):
        return self.out(self.res(feats)) + self.mean


class TrainerACE:
    def __init__(self, options):
        self.options = options
        torch.manual_seed(options.seed)
        self.encoder = Encoder()
        for p in self.encoder.parameters():
            p.requires_grad_(False)
        self.regressor = Head(mean=torch.tensor([0.0, 0.0, 2.0]))
        self.optimizer = torch.optim.AdamW(self.regressor.parameters(), lr=options.learning_rate_min)
        self.iteration = 0

    def train(self, images, coords):
        self.training_buffer = create_training_buffer(self.encoder, images, coords)
        _logger.info(f"Created buffer of {self.training_buffer['features'].size(0)} features.")
        for epoch in range(self.options.epochs):
            for features, target in iterate_buffer(self.training_buffer, self.options.batch_size):
                self.training_step(features, target)

    def training_step(self, features, target_coords):
        self.regressor.train()
        pred = self.regressor(features)
        loss = (pred - target_coords).norm(dim=1).clamp(max=self.options.repro_loss_hard_clamp).mean()
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        if self.iteration % 4 == 0:
            _logger.info(f'Iteration: {self.iteration:6d}, Loss: {loss.item():.4f}')
        self.iteration += 1


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--learning_rate_min', type=float, default=5e-4)
    parser.add_argument('--batch_size', type=int, default=16)
    parser.add_argument('--epochs', type=int, default=2)
    parser.add_argument('--repro_loss_hard_clamp', type=float, default=100.0)
    parser.add_argument('--seed', type=int, default=2089)
    opt = parser.parse_args()
    images = [torch.rand(1, 16, 16) for _ in range(3)]
    coords = [torch.randn(3, 4, 4) + torch.tensor([0.0, 0.0, 2.0]).view(3, 1, 1) for _ in range(3)]
    TrainerACE(opt).train(images, coords)
