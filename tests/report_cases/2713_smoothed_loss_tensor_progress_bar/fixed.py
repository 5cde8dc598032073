import torch
import torch.nn as nn

torch.manual_seed(0)


class Trainer:
    def __init__(self, model, lr=1e-2, smoothing=0.98):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        self.criterion = nn.MSELoss()
        self.smoothing = smoothing
        self.smoothed_loss = None

    def log(self, step):
        if step % 10 == 0:
            print(f"step {step} smoothed loss {self.smoothed_loss}")

    def train_step(self, x, y, step):
        self.optimizer.zero_grad()
        loss = self.criterion(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        if self.smoothed_loss is None:
            self.smoothed_loss = loss.item()
        else:
            self.smoothed_loss = self.smoothing * self.smoothed_loss + (1 - self.smoothing) * loss.item()
        self.log(step)


model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
trainer = Trainer(model)
for step in range(30):
    trainer.train_step(torch.randn(32, 8), torch.randn(32, 1), step)
