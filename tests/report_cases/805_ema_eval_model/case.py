"""Classifier training with a timm-style ModelEmaV2 shadow copy and AverageMeter logging."""
from copy import deepcopy

import torch
import torch.nn as nn

torch.manual_seed(0)


class ModelEmaV2(nn.Module):
    def __init__(self, model, decay=0.99):
        super().__init__()
        self.module = deepcopy(model)
        self.module.eval()
        self.decay = decay

    def _update(self, model, update_fn):
        with torch.no_grad():
            for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
                ema_v.copy_(update_fn(ema_v, model_v))

    def update(self, model):
        self._update(model, update_fn=lambda e, m: self.decay * e + (1. - self.decay) * m)


class AverageMeter:
    def __init__(self):
        self.sum, self.count, self.avg = 0.0, 0, 0.0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


model = nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 4))
model_ema = ModelEmaV2(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()
x_train, y_train = torch.randn(64, 10), torch.randint(0, 4, (64,))
x_val, y_val = torch.randn(32, 10), torch.randint(0, 4, (32,))

for epoch in range(3):
    model.train()
    losses_m = AverageMeter()
    for i in range(0, 64, 16):
        inp, target = x_train[i:i + 16], y_train[i:i + 16]
        output = model(inp)
        loss = loss_fn(output, target)
        losses_m.update(loss.item(), inp.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model_ema.update(model)

    model_ema.eval()
    with torch.no_grad():
        val_loss = loss_fn(model_ema.module(x_val), y_val)
    print(epoch, round(losses_m.avg, 4), round(val_loss.item(), 4))
