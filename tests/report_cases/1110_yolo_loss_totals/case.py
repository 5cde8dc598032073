"""Training loop of a small YOLO-style detector with per-term loss logging."""
from collections import defaultdict

import torch

from losses import YOLOLoss, synthetic_loader
from model import TinyDetector


class ModelTrainer:
    def __init__(self, model, loss_fn, optimizer, device="cpu"):
        self.model, self.loss_fn, self.optimizer, self.device = model, loss_fn, optimizer, device
        self.history = []

    def train_one_batch(self, images, targets):
        self.optimizer.zero_grad(set_to_none=True)
        predicts = self.model(images)
        loss, loss_item = self.loss_fn(predicts, targets)
        loss.backward()
        self.optimizer.step()
        return loss_item

    def train_one_epoch(self, dataloader):
        self.model.train()
        total_loss = defaultdict(lambda: torch.tensor(0.0, device=self.device))
        total_samples = 0
        for images, targets in dataloader:
            batch_size = images.shape[0]
            loss_each = self.train_one_batch(images, targets)
            for loss_name, loss_val in loss_each.items():
                total_loss[loss_name] += loss_val * batch_size
            total_samples += batch_size
        epoch_stats = {name: val / total_samples for name, val in total_loss.items()}
        self.history.append(epoch_stats)
        return epoch_stats

    def fit(self, epochs, batches_per_epoch):
        for epoch in range(epochs):
            stats = self.train_one_epoch(synthetic_loader(batches_per_epoch))
            print(f"epoch {epoch}: " + " ".join(f"{k}={float(v):.4f}" for k, v in stats.items()))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyDetector()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937, nesterov=True)
    trainer = ModelTrainer(model, YOLOLoss(), optimizer)
    trainer.fit(epochs=3, batches_per_epoch=5)
