import torch
import torch.nn as nn
import torch.nn.functional as F


class LitPINN(nn.Module):
    """Lightning-like module fitting u'' = -u on [0, pi] with a data term and a residual term."""

    LR = 5e-3

    def __init__(self, hidden=32, residual_weight=0.1):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, 1))
        self.residual_weight = residual_weight

    def forward(self, x):
        return self.net(x)

    def compute_loss(self, batch):
        x_data, u_data, x_col = batch
        data_loss = F.mse_loss(self(x_data), u_data)
        x_col = x_col.clone().requires_grad_(True)
        u = self(x_col)
        du = torch.autograd.grad(u.sum(), x_col, create_graph=True)[0]
        d2u = torch.autograd.grad(du.sum(), x_col, create_graph=True)[0]
        residual_loss = (d2u + u).pow(2).mean()
        return {"data": data_loss, "residual": residual_loss}

    def training_step(self, batch, batch_idx):
        losses = self.compute_loss(batch)
        loss = losses["data"] + self.residual_weight * losses["residual"]
        return {"loss": loss, "log": {name: value.detach() for name, value in losses.items()}}

    @torch.no_grad()
    def validation_step(self, batch, batch_idx):
        x_data, u_data, _ = batch
        return {"val_mse": F.mse_loss(self(x_data), u_data)}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.LR)
