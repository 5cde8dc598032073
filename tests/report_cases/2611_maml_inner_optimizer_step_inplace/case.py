import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

params = {"num_classes": 3, "num_samples": 2, "num_query": 2, "task_lr": 0.1, "meta_lr": 1e-3,
          "num_train_updates": 2, "num_inner_tasks": 4, "num_episodes": 3}


class MetaLearner(nn.Module):
    def __init__(self, in_dim=10, hidden=16, n_cls=3):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, n_cls)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def sample_task(p):
    n, k, q = p["num_classes"], p["num_samples"], p["num_query"]
    centers = torch.randn(n, 10) * 2
    ys, yq = torch.arange(n).repeat_interleave(k), torch.arange(n).repeat_interleave(q)
    return centers[ys] + torch.randn(n * k, 10), ys, centers[yq] + torch.randn(n * q, 10), yq


def train_single_task(model, task_lr, loss_fn, task, p):
    """Adapt the model to one task with a plain SGD optimizer (in-place parameter update)."""
    X_sup, Y_sup = task[0], task[1]
    inner_optimizer = torch.optim.SGD(model.parameters(), lr=task_lr)
    for _ in range(p["num_train_updates"]):
        loss = loss_fn(model(X_sup), Y_sup)
        inner_optimizer.zero_grad()
        loss.backward()
        inner_optimizer.step()
    return model


def train_and_evaluate(model, meta_optimizer, loss_fn, p):
    for episode in range(p["num_episodes"]):
        meta_params = copy.deepcopy(model.state_dict())
        meta_loss = 0
        for _ in range(p["num_inner_tasks"]):
            task = sample_task(p)
            model.load_state_dict(meta_params)
            train_single_task(model, p["task_lr"], loss_fn, task, p)
            X_meta, Y_meta = task[2], task[3]
            meta_loss += loss_fn(model(X_meta), Y_meta)
        meta_optimizer.zero_grad()
        meta_loss.backward()
        meta_optimizer.step()
        print("episode", episode, "meta loss", meta_loss.item())


model = MetaLearner()
meta_optimizer = torch.optim.Adam(model.parameters(), lr=params["meta_lr"])
train_and_evaluate(model, meta_optimizer, nn.CrossEntropyLoss(), params)
