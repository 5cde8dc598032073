"""Mean-teacher semi-supervised training: the teacher is an EMA of the student and gets no gradients."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def create_model(ema=False, in_dim=12, n_classes=3):
    model = nn.Sequential(nn.Linear(in_dim, 48), nn.ReLU(), nn.Dropout(0.1), nn.Linear(48, n_classes))
    if ema:
        for param in model.parameters():
            param.detach_()
    return model


@torch.no_grad()
def update_ema_variables(model, ema_model, alpha, global_step):
    # use the true average until the exponential average is more correct
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.mul_(alpha).add_(param, alpha=1 - alpha)


def softmax_mse_loss(input_logits, target_logits):
    return F.mse_loss(F.softmax(input_logits, dim=1), F.softmax(target_logits, dim=1))


def augment(x):
    return x + 0.1 * torch.randn_like(x)


def batches(n, labeled=8, unlabeled=24, in_dim=12):
    w = torch.randn(in_dim, 3)
    for _ in range(n):
        x_l = torch.randn(labeled, in_dim)
        yield x_l, (x_l @ w).argmax(dim=1), torch.randn(unlabeled, in_dim)


def train(epochs=2, steps=5, ema_decay=0.99, consistency_weight=10.0):
    model = create_model()
    ema_model = create_model(ema=True)
    ema_model.load_state_dict(model.state_dict())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    global_step = 0
    for epoch in range(epochs):
        model.train()
        ema_model.train()
        for x_l, y_l, x_u in batches(steps):
            x_all = torch.cat([x_l, x_u])
            student_logits = model(augment(x_all))
            with torch.no_grad():
                teacher_logits = ema_model(augment(x_all))
            class_loss = F.cross_entropy(student_logits[: len(x_l)], y_l)
            consistency_loss = consistency_weight * softmax_mse_loss(student_logits, teacher_logits)
            loss = class_loss + consistency_loss

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            global_step += 1
            update_ema_variables(model, ema_model, ema_decay, global_step)
        print(f"epoch {epoch} class {class_loss.item():.4f} cons {consistency_loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train()
