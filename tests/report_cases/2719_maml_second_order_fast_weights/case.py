from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FewShotClassifier(nn.Module):
    def __init__(self, in_dim=10, k_way=3):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, 32)
        self.logits = nn.Linear(32, k_way)

    def functional_forward(self, x, weights):
        x = F.relu(F.linear(x, weights["fc1.weight"], weights["fc1.bias"]))
        return F.linear(x, weights["logits.weight"], weights["logits.bias"])


def meta_gradient_step(model, optimiser, x_tasks, y_tasks, inner_train_steps=2, inner_lr=0.4, order=2):
    task_losses = []
    for x, y in zip(x_tasks, y_tasks):
        x_task_train, x_task_val = x[:6], x[6:]
        y_task_train, y_task_val = y[:6], y[6:]
        fast_weights = OrderedDict(model.named_parameters())
        for inner_batch in range(inner_train_steps):
            logits = model.functional_forward(x_task_train, fast_weights)
            loss = F.cross_entropy(logits, y_task_train)
            gradients = torch.autograd.grad(loss, fast_weights.values(), create_graph=(order == 2))
            fast_weights = OrderedDict((name, param - inner_lr * grad)
                                       for ((name, param), grad) in zip(fast_weights.items(), gradients))
        logits = model.functional_forward(x_task_val, fast_weights)
        task_losses.append(F.cross_entropy(logits, y_task_val))
    optimiser.zero_grad()
    meta_batch_loss = torch.stack(task_losses).mean()
    meta_batch_loss.backward()
    optimiser.step()
    return meta_batch_loss.item()


model = FewShotClassifier()
optimiser = torch.optim.Adam(model.parameters(), lr=1e-3)
for episode in range(4):
    x_tasks = [torch.randn(12, 10) for _ in range(4)]
    y_tasks = [torch.randint(0, 3, (12,)) for _ in range(4)]
    meta_gradient_step(model, optimiser, x_tasks, y_tasks)
