"""Transfer learning with a backbone-finetuning callback; the run is interrupted and resumed from the
checkpoint written after epoch 2 (the backbone had been unfrozen at epoch 1); the callback state travels
with the checkpoint."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from callbacks_restoring import BackboneFinetuning

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.head = nn.Linear(32, 3)

    def forward(self, x):
        return self.head(self.backbone(x))

    def configure_optimizers(self):
        # discriminative learning rates: a slow optimizer for the backbone, a fast one for the head
        return [torch.optim.SGD(self.backbone.parameters(), lr=1e-3),
                torch.optim.SGD(self.head.parameters(), lr=1e-2)]


class Trainer:
    def __init__(self, callback, max_epochs):
        self.callback, self.max_epochs = callback, max_epochs

    def fit(self, model, batches, ckpt=None):
        self.callback.setup(model)
        optimizers = model.configure_optimizers()
        start = 0
        if ckpt is not None:
            model.load_state_dict(ckpt["state_dict"])
            self.callback.load_state_dict(model, ckpt["callback"])
            start = ckpt["epoch"]
        for epoch in range(start, self.max_epochs):
            self.callback.on_train_epoch_start(model, epoch)
            for x, y in batches:
                loss = F.cross_entropy(model(x), y)
                for opt in optimizers:
                    opt.zero_grad()
                loss.backward()
                for opt in optimizers:
                    opt.step()
            print(f"epoch {epoch} loss {loss.item():.4f} backbone trainable "
                  f"{model.backbone[0].weight.requires_grad}")
        return {"state_dict": model.state_dict(), "epoch": self.max_epochs,
                "callback": self.callback.state_dict(model)}


if __name__ == "__main__":
    batches = [(torch.randn(8, 16), torch.randint(0, 3, (8,))) for _ in range(3)]
    model = Classifier()
    ckpt = Trainer(BackboneFinetuning(unfreeze_backbone_at_epoch=1), max_epochs=2).fit(model, batches)
    # ... job preempted; a new process resumes from the checkpoint
    resumed = Classifier()
    Trainer(BackboneFinetuning(unfreeze_backbone_at_epoch=1), max_epochs=4).fit(resumed, batches, ckpt=ckpt)
