import torch
import torch.nn as nn


class BaseModel(nn.Module):
    """Small stand-in for pytorch_forecasting.models.base_model.BaseModel."""

    def __init__(self, loss=None, learning_rate=1e-3):
        super().__init__()
        self.loss = loss or nn.L1Loss()
        self.learning_rate = learning_rate
        self.training_step_outputs = []
        self.logged = {}

    def log(self, name, value):
        self.logged[name] = float(value)

    def step(self, x, y, batch_idx):
        out = self(x)
        prediction = out["prediction"]
        loss = self.loss(prediction, y)
        self.log("train_loss", loss.item())
        log = {"loss": loss, "n_samples": x["encoder_cont"].size(0)}
        return log, out

    def on_train_epoch_end(self):
        losses = torch.stack([o["loss"] for o in self.training_step_outputs])
        self.log("train_loss_epoch", losses.mean().item())
        self.training_step_outputs.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.learning_rate)
