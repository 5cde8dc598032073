"""Lightning-2.x style: the module collects its own per-step values for on_train_epoch_end, storing
detached tensors and clearing the list at the end of every epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LitClassifier(nn.Module):
    def __init__(self, in_dim=20, n_classes=5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, n_classes))
        self.training_step_outputs = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        loss = F.cross_entropy(logits, y)
        self.training_step_outputs.append(
            {"loss": loss.detach(), "correct": (logits.argmax(-1) == y).sum(), "n": y.numel()})
        return loss

    def on_train_epoch_end(self):
        outs = self.training_step_outputs
        acc = sum(o["correct"].item() for o in outs) / sum(o["n"] for o in outs)
        mean_loss = torch.stack([o["loss"] for o in outs]).mean().item()
        self.training_step_outputs.clear()  # free memory
        return {"train_acc": acc, "train_loss": mean_loss}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


class MiniTrainer:
    def __init__(self, max_epochs=2):
        self.max_epochs = max_epochs

    def fit(self, model, train_batches):
        optimizer = model.configure_optimizers()
        for epoch in range(self.max_epochs):
            for batch_idx, batch in enumerate(train_batches):
                loss = model.training_step(batch, batch_idx)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            print(f"epoch {epoch} {model.on_train_epoch_end()}")


if __name__ == "__main__":
    batches = [(torch.randn(16, 20), torch.randint(0, 5, (16,))) for _ in range(8)]
    MiniTrainer().fit(LitClassifier(), batches)
