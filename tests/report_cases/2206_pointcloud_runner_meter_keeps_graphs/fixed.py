import logging

import torch

from runner import SparenetRunner

torch.manual_seed(0)
logging.basicConfig(level=logging.INFO, format="%(message)s")


class ItemRunner(SparenetRunner):
    """train_step that hands plain numbers (not loss tensors) to the meters and the loss dict."""

    def train_step(self, items):
        _, data = items
        _loss, _, _, _, refine_loss, coarse_loss = self.completion(data)
        self.models.zero_grad()
        _loss.backward()
        self.optimizers.step()

        self.loss["coarse_loss"] = coarse_loss.item() * 1000
        self.loss["refine_loss"] = refine_loss.item() * 1000
        self.loss["rec_loss"] = _loss.item()
        self.losses.update([coarse_loss.item() * 1000, refine_loss.item() * 1000])


def shapenet_like_loader(n_batches, batch_size=4, n_partial=96, n_gt=128):
    """Synthetic completion data: points on a random ellipsoid, the partial cloud is one half."""
    batches = []
    for _ in range(n_batches):
        axes = 0.5 + torch.rand(batch_size, 1, 3)
        gt = torch.nn.functional.normalize(torch.randn(batch_size, n_gt, 3), dim=-1) * axes
        partial = torch.nn.functional.normalize(torch.randn(batch_size, n_partial, 3), dim=-1) * axes
        partial[..., 0] = partial[..., 0].abs()
        batches.append({"partial_cloud": partial, "gtcloud": gt})
    return batches


def main():
    config = {"lr": 1e-3, "epochs": 3}
    logger = logging.getLogger("sparenet")
    runner = ItemRunner(config, logger)
    runner.build_models()
    train_loader = shapenet_like_loader(6)
    val_loader = shapenet_like_loader(2)
    for epoch in range(config["epochs"]):
        runner.train_epoch(epoch, train_loader)
        runner.val_epoch(epoch, val_loader)


if __name__ == "__main__":
    main()
