import logging

import torch
import torch.nn as nn

from misc import AverageMeter


def chamfer_distance_mean(pred, gt):
    """Symmetric chamfer distance (mean of squared nearest-neighbour distances), per sample."""
    d = torch.cdist(pred, gt) ** 2
    return d.min(dim=2)[0].mean(dim=1) + d.min(dim=1)[0].mean(dim=1)


class PointCompletionNet(nn.Module):
    """Coarse -> middle -> refine point cloud completion (SpareNet-like, heavily simplified)."""

    def __init__(self, n_coarse=64, n_fine=128, feat=128):
        super().__init__()
        self.n_coarse, self.n_fine = n_coarse, n_fine
        self.encoder = nn.Sequential(nn.Conv1d(3, 64, 1), nn.ReLU(), nn.Conv1d(64, feat, 1))
        self.coarse_head = nn.Sequential(nn.Linear(feat, 256), nn.ReLU(), nn.Linear(256, n_coarse * 3))
        self.folding = nn.Sequential(nn.Conv1d(feat + 3 + 2, 64, 1), nn.ReLU(), nn.Conv1d(64, 3, 1))
        self.refiner = nn.Sequential(nn.Conv1d(3, 32, 1), nn.ReLU(), nn.Conv1d(32, 3, 1))

    def forward(self, data):
        partial = data["partial_cloud"]                      # B x N x 3
        f = self.encoder(partial.transpose(1, 2)).max(dim=2)[0]  # B x feat
        coarse = self.coarse_head(f).view(-1, self.n_coarse, 3)
        rep = self.n_fine // self.n_coarse
        seeds = coarse.repeat_interleave(rep, dim=1)            # B x n_fine x 3
        grid = torch.linspace(-0.05, 0.05, rep).repeat(self.n_coarse)
        grid = torch.stack([grid, grid.flip(0)], 0)[None].expand(partial.size(0), -1, -1)
        feat = f[:, :, None].expand(-1, -1, self.n_fine)
        middle = seeds + self.folding(torch.cat([feat, seeds.transpose(1, 2), grid], 1)).transpose(1, 2)
        refine = middle + 0.1 * self.refiner(middle.transpose(1, 2)).transpose(1, 2)
        # penalise middle points that wander far from their seed (stand-in for the expansion penalty)
        expansion_penalty = ((middle - seeds) ** 2).sum(-1).mean(-1)
        return coarse, middle, refine, expansion_penalty


class BaseRunner(object):
    def __init__(self, config, logger):
        self.config = config
        self.logger = logger
        self.models = None
        self.optimizers = None
        self.loss = {}

    def build_models(self):
        self.models = PointCompletionNet()
        self.optimizers = torch.optim.Adam(self.models.parameters(), lr=self.config["lr"])


class SparenetRunner(BaseRunner):
    """Define the SpareNet-style runner class"""

    def __init__(self, config, logger):
        super().__init__(config, logger)
        self.losses = AverageMeter(["CoarseLoss", "RefineLoss"])
        self.test_losses = AverageMeter(["CoarseLoss", "RefineLoss"])

    def train_step(self, items):
        _, data = items
        _loss, _, _, _, refine_loss, coarse_loss = self.completion(data)
        self.models.zero_grad()
        _loss.backward()
        self.optimizers.step()

        self.loss["coarse_loss"] = coarse_loss * 1000
        self.loss["refine_loss"] = refine_loss * 1000
        self.loss["rec_loss"] = _loss
        self.losses.update([coarse_loss * 1000, refine_loss * 1000])

    @torch.no_grad()
    def val_step(self, items):
        _, data = items
        _, refine_ptcloud, _, _, refine_loss, coarse_loss = self.completion(data)
        self.test_losses.update([coarse_loss.item() * 1000, refine_loss.item() * 1000])

    def completion(self, data):
        coarse_ptcloud, middle_ptcloud, refine_ptcloud, expansion_penalty = self.models(data)
        coarse_loss = chamfer_distance_mean(coarse_ptcloud, data["gtcloud"]).mean()
        middle_loss = chamfer_distance_mean(middle_ptcloud, data["gtcloud"]).mean()
        refine_loss = chamfer_distance_mean(refine_ptcloud, data["gtcloud"]).mean()
        _loss = coarse_loss + middle_loss + refine_loss + expansion_penalty.mean() * 0.1
        return _loss, refine_ptcloud, middle_ptcloud, coarse_ptcloud, refine_loss, coarse_loss

    def train_epoch(self, epoch, loader):
        self.models.train()
        self.losses.reset()
        for idx, data in enumerate(loader):
            self.train_step((idx, data))
        coarse, refine = self.losses.avg()
        self.logger.info("[Epoch %d] CoarseLoss %.4f RefineLoss %.4f" % (epoch, float(coarse), float(refine)))

    def val_epoch(self, epoch, loader):
        self.models.eval()
        self.test_losses.reset()
        for idx, data in enumerate(loader):
            self.val_step((idx, data))
        coarse, refine = self.test_losses.avg()
        self.logger.info("[Epoch %d] val CoarseLoss %.4f RefineLoss %.4f" % (epoch, coarse, refine))
