import torch
import torch.nn as nn
import torch.nn.functional as F

from optim_fixed import Lookahead

torch.manual_seed(0)


class LitRegressor(nn.Module):
    """LightningModule-style model: training_step returns the loss, the loop does the rest."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.mse_loss(self.net(x), y)

    def configure_optimizers(self):
        return Lookahead(torch.optim.AdamW(self.parameters(), lr=1e-3), k=3)


class AutomaticOptimizationLoop:
    """Like Lightning's automatic optimization: step(closure) with forward+backward inside."""

    def __init__(self, module, max_epochs=2):
        self.module, self.max_epochs = module, max_epochs
        self.optimizer = module.configure_optimizers()

    def fit(self, batches):
        self.module.train()
        for epoch in range(self.max_epochs):
            for batch_idx, batch in enumerate(batches):
                def closure():
                    loss = self.module.training_step(batch, batch_idx)
                    self.optimizer.zero_grad()
                    loss.backward()
                    return loss
                self.optimizer.step(closure=closure)


batches = [(torch.randn(16, 10), torch.randn(16, 1)) for _ in range(4)]
AutomaticOptimizationLoop(LitRegressor()).fit(batches)
