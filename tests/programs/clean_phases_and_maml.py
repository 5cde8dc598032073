"""torchvision's fine-tuning loop (set_grad_enabled per phase), an EMA teacher and a
MAML-style inner step with create_graph=True."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def train_model(model, loaders, criterion, optimizer, epochs=2):
    ema = copy.deepcopy(model)
    for epoch in range(epochs):
        for phase in ["train", "val"]:
            if phase == "train":
                model.train()
            else:
                model.eval()
            running_loss = 0.0
            for inputs, labels in loaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    loss = criterion(outputs, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                        with torch.no_grad():
                            for e, p in zip(ema.parameters(), model.parameters()):
                                e.mul_(0.99).add_(p, alpha=0.01)
                running_loss += loss.item() * inputs.size(0)
            print(phase, running_loss)
    return model


def maml_step(model, meta_opt, tasks, inner_lr=0.1):
    meta_opt.zero_grad()
    outer = 0.0
    for x_s, y_s, x_q, y_q in tasks:
        params = list(model.parameters())
        loss = F.mse_loss(model(x_s), y_s)
        grads = torch.autograd.grad(loss, params, create_graph=True)
        w, b = [p - inner_lr * g for p, g in zip(params, grads)]
        outer = outer + F.mse_loss(F.linear(x_q, w, b), y_q)
    outer.backward()
    meta_opt.step()


if __name__ == "__main__":
    net = nn.Linear(3, 2)
    data = [(torch.randn(4, 3), torch.randint(0, 2, (4,)))]
    train_model(net, {"train": data, "val": data}, nn.CrossEntropyLoss(),
                torch.optim.SGD(net.parameters(), lr=0.1))
    reg = nn.Linear(3, 1)
    maml_step(reg, torch.optim.Adam(reg.parameters()),
              [(torch.randn(4, 3), torch.randn(4, 1), torch.randn(4, 3), torch.randn(4, 1))])
