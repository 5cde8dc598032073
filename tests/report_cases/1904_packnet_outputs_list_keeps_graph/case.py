"""Self-supervised depth training loop in the style of a packnet-sfm trainer.

training_step() returns a dict with the loss and some metrics; the trainer collects
those dicts for every batch and averages them at the end of the epoch for logging.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyDepthNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(8, 1, 3, padding=1)

    def forward(self, rgb):
        return torch.sigmoid(self.head(self.enc(rgb)))  # inverse depth


class SelfSupModel(nn.Module):
    def __init__(self, smooth_weight=0.0):
        super().__init__()
        self.depth_net = TinyDepthNet()
        self.smooth_weight = smooth_weight

    @staticmethod
    def smoothness(inv_depth, rgb):
        dx = (inv_depth[..., :, 1:] - inv_depth[..., :, :-1]).abs()
        dy = (inv_depth[..., 1:, :] - inv_depth[..., :-1, :]).abs()
        wx = torch.exp(-(rgb[..., :, 1:] - rgb[..., :, :-1]).abs().mean(1, keepdim=True))
        wy = torch.exp(-(rgb[..., 1:, :] - rgb[..., :-1, :]).abs().mean(1, keepdim=True))
        return (dx * wx).mean() + (dy * wy).mean()

    def training_step(self, batch, batch_idx):
        inv_depth = self.depth_net(batch["rgb"])
        warped = batch["rgb_context"] * inv_depth  # stand-in for the view synthesis
        photometric = F.l1_loss(warped, batch["rgb"])
        smooth = self.smoothness(inv_depth, batch["rgb"])
        loss = photometric
        if self.smooth_weight > 0:
            loss = loss + self.smooth_weight * smooth
        return {
            "loss": loss,
            "metrics": {"photometric_loss": photometric, "smoothness_loss": smooth,
                        "inv_depth_mean": inv_depth.mean()},
        }


class Trainer:
    def __init__(self, module, lr=2e-4):
        self.module = module
        self.optimizer = torch.optim.Adam(module.parameters(), lr=lr)

    def train(self, dataloader):
        self.module.train()
        outputs = []
        for i, batch in enumerate(dataloader):
            self.optimizer.zero_grad()
            output = self.module.training_step(batch, i)
            output["loss"].backward()
            self.optimizer.step()
            outputs.append(output)
        return self.training_epoch_end(outputs)

    @staticmethod
    def training_epoch_end(outputs):
        avg_loss = torch.stack([o["loss"] for o in outputs]).mean()
        avg_smooth = torch.stack([o["metrics"]["smoothness_loss"] for o in outputs]).mean()
        return {"avg_train-loss": avg_loss.item(), "avg_train-smoothness": avg_smooth.item()}


def make_loader(n=4):
    return [{"rgb": torch.rand(2, 3, 16, 16), "rgb_context": torch.rand(2, 3, 16, 16)} for _ in range(n)]


trainer = Trainer(SelfSupModel())
for epoch in range(2):
    print(epoch, trainer.train(make_loader()))
