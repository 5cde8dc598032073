import torch
import torch.nn as nn
import torch.nn.functional as F


class LitClassifier(nn.Module):
    """LightningModule-style classifier: training_step returns a dict, training_epoch_end
    aggregates everything returned during the epoch."""

    def __init__(self, in_dim=20, n_classes=5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, n_classes))

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        loss = F.cross_entropy(logits, y)
        preds = logits.softmax(dim=-1)
        return {"loss": loss, "preds": preds, "targets": y}

    def training_epoch_end(self, outputs):
        preds = torch.cat([o["preds"] for o in outputs]).argmax(-1)
        targets = torch.cat([o["targets"] for o in outputs])
        mean_loss = torch.stack([o["loss"] for o in outputs]).mean()
        return {"train_acc": (preds == targets).float().mean().item(), "train_loss": mean_loss.item()}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
