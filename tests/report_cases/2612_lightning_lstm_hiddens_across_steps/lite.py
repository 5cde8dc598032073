"""Tiny Lightning-like pieces: a LightningModule base and a Trainer that threads `hiddens`
from one training_step to the next (what the reporter wanted from truncated_bptt_steps)."""
import torch
import torch.nn as nn


class LightningModule(nn.Module):
    def configure_optimizers(self):
        raise NotImplementedError


class Trainer:
    def __init__(self, max_epochs=1):
        self.max_epochs = max_epochs

    def fit(self, model, train_dataloader):
        optimizer = model.configure_optimizers()
        for epoch in range(self.max_epochs):
            hiddens = None
            for batch_nb, batch in enumerate(train_dataloader):
                output = model.training_step(batch, batch_nb, hiddens)
                optimizer.zero_grad()
                output["loss"].backward()
                optimizer.step()
                hiddens = output["hiddens"]
            print("epoch", epoch, "last loss", output["loss"].item())
