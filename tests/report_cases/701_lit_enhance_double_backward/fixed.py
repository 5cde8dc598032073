"""Low-light enhancement net written as a LightningModule look-alike.

A tiny hand-written `fit` loop mimics Lightning's automatic optimization:
it calls training_step, then runs backward on the returned loss itself.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

class EnhanceModule(nn.Module):
    def __init__(self, lr=1e-3, tv_weight=0.05):
        super().__init__()
        self.lr = lr
        self.tv_weight = tv_weight
        self.net = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 3, 3, padding=1),
        )

    def forward(self, x):
        return torch.sigmoid(self.net(x) + x)

    def tv_loss(self, img):
        dh = (img[:, :, 1:, :] - img[:, :, :-1, :]).abs().mean()
        dw = (img[:, :, :, 1:] - img[:, :, :, :-1]).abs().mean()
        return dh + dw

    def training_step(self, batch, batch_idx):
        low, ref = batch
        out = self(low)
        loss = F.l1_loss(out, ref) + self.tv_weight * self.tv_loss(out)

        return {"loss": loss, "log": {"train_l1": loss.item()}}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)

class MiniTrainer:
    def __init__(self, max_epochs=2):
        self.max_epochs = max_epochs
        self.logged = []

    def fit(self, module, batches):
        opt = module.configure_optimizers()
        module.train()
        for epoch in range(self.max_epochs):
            for batch_idx, batch in enumerate(batches):
                opt.zero_grad()
                out = module.training_step(batch, batch_idx)
                out["loss"].backward()
                opt.step()
                self.logged.append(out["log"])
        return self.logged

def make_batches(n=3):
    torch.manual_seed(0)
    batches = []
    for _ in range(n):
        ref = torch.rand(2, 3, 16, 16)
        batches.append((ref * 0.3, ref))
    return batches

if __name__ == "__main__":
    logs = MiniTrainer(max_epochs=2).fit(EnhanceModule(), make_batches())
    print("last", logs[-1])
