import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)

args = {"lr": 2e-3, "ema_decay": 0.999, "alpha": 0.75, "T": 0.5, "lambda_u": 75, "train_iteration": 5}


def create_model(ema=False):
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
    if ema:
        for param in model.parameters():
            param.detach_()
    return model


class WeightEMA:
    def __init__(self, model, ema_model, alpha=0.999):
        self.model, self.ema_model, self.alpha = model, ema_model, alpha
        self.params = list(model.state_dict().values())
        self.ema_params = list(ema_model.state_dict().values())
        self.wd = 0.02 * args["lr"]
        for param, ema_param in zip(self.params, self.ema_params):
            param.data.copy_(ema_param.data)

    def step(self):
        one_minus_alpha = 1.0 - self.alpha
        for param, ema_param in zip(self.params, self.ema_params):
            if ema_param.dtype == torch.float32:
                ema_param.mul_(self.alpha)
                ema_param.add_(param * one_minus_alpha)
                param.mul_(1 - self.wd)  # customized weight decay


def sharpen(p, T):
    pt = p ** (1 / T)
    return pt / pt.sum(dim=1, keepdim=True)


def train(model, ema_optimizer, optimizer):
    model.train()
    for batch_idx in range(args["train_iteration"]):
        inputs_x, targets_x = torch.randn(8, 10), torch.randint(0, 4, (8,))
        inputs_u, inputs_u2 = torch.randn(8, 10), torch.randn(8, 10)
        targets_x = F.one_hot(targets_x, 4).float()
        with torch.no_grad():
            p = (torch.softmax(model(inputs_u), dim=1) + torch.softmax(model(inputs_u2), dim=1)) / 2
            targets_u = sharpen(p, args["T"]).detach()
        all_inputs = torch.cat([inputs_x, inputs_u, inputs_u2])
        all_targets = torch.cat([targets_x, targets_u, targets_u])
        lam = max(np.random.beta(args["alpha"], args["alpha"]), 1 - np.random.beta(args["alpha"], args["alpha"]))
        idx = torch.randperm(all_inputs.size(0))
        mixed_input = lam * all_inputs + (1 - lam) * all_inputs[idx]
        mixed_target = lam * all_targets + (1 - lam) * all_targets[idx]
        logits = model(mixed_input)
        Lx = -torch.mean(torch.sum(F.log_softmax(logits[:8], dim=1) * mixed_target[:8], dim=1))
        Lu = torch.mean((torch.softmax(logits[8:], dim=1) - mixed_target[8:]) ** 2)
        loss = Lx + args["lambda_u"] * 0.01 * Lu
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ema_optimizer.step()
    return loss.item()


def validate(ema_model):
    ema_model.eval()
    with torch.no_grad():
        x, y = torch.randn(32, 10), torch.randint(0, 4, (32,))
        return (ema_model(x).argmax(1) == y).float().mean().item()


model, ema_model = create_model(), create_model(ema=True)
optimizer = torch.optim.Adam(model.parameters(), lr=args["lr"])
ema_optimizer = WeightEMA(model, ema_model, alpha=args["ema_decay"])
for epoch in range(2):
    print(epoch, train(model, ema_optimizer, optimizer), validate(ema_model))
