import torch

from trainer import Trainer


class PytorchTrainer(Trainer):
    def __init__(self, model, loss_function, optimizer, learning_rate, **kwargs):
        super().__init__(model, loss_function, **kwargs)
        self.optimizer = optimizer(self.model.parameters(), lr=learning_rate)

    def training_step(self, batch):
        x, y = batch
        y_hat = self.model(x)
        loss = self.loss_function(y_hat, y)
        self.train_costs.append(loss.item())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return y_hat, loss.item()

    def validation_step(self, batch):
        x, y = batch
        with torch.no_grad():
            y_hat = self.model(x)
            loss = self.loss_function(y_hat, y)
        return y_hat, loss.item()
