"""Distil a teacher MLP into a smaller student on an unlabeled transfer set (Hinton et al.)."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

SETTINGS = {
    "in_features": 20,
    "num_classes": 6,
    "temperature": 4.0,
    "transfer_size": 128,
    "batch_size": 32,
    "epochs": 2,
    "lr": 0.05,
}


def build_mlp(in_features, hidden, num_classes, depth):
    layers, dim = [], in_features
    for _ in range(depth):
        layers += [nn.Linear(dim, hidden), nn.ReLU()]
        dim = hidden
    layers.append(nn.Linear(dim, num_classes))
    return nn.Sequential(*layers)


def per_sample_soft_ce(student_logits, teacher_logits, T):
    """Soft-target cross entropy, averaged over the batch and rescaled by T^2."""
    total = 0.0
    for s, t in zip(student_logits, teacher_logits):
        p_teacher = F.softmax(t / T, dim=-1)
        log_p_student = F.log_softmax(s / T, dim=-1)
        total += -(p_teacher * log_p_student).sum().item()
    mean = total / len(student_logits)
    return torch.tensor(mean * T * T, requires_grad=True)


def distill(teacher, student, transfer_x, cfg):
    teacher.eval()
    optimizer = torch.optim.SGD(student.parameters(), lr=cfg["lr"], momentum=0.9)
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(transfer_x.size(0))
        epoch_loss = 0.0
        for start in range(0, transfer_x.size(0), cfg["batch_size"]):
            xb = transfer_x[perm[start:start + cfg["batch_size"]]]
            with torch.no_grad():
                t_logits = teacher(xb)
            s_logits = student(xb)
            loss = per_sample_soft_ce(s_logits, t_logits, cfg["temperature"])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        print(f"epoch {epoch}: distillation loss {epoch_loss:.4f}")
    return student


def agreement(teacher, student, x):
    with torch.no_grad():
        return (teacher(x).argmax(1) == student(x).argmax(1)).float().mean().item()


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = copy.deepcopy(SETTINGS)
    teacher = build_mlp(cfg["in_features"], 128, cfg["num_classes"], depth=3)
    student = build_mlp(cfg["in_features"], 16, cfg["num_classes"], depth=1)
    transfer_x = torch.randn(cfg["transfer_size"], cfg["in_features"])
    student = distill(teacher, student, transfer_x, cfg)
    print("teacher/student agreement:", agreement(teacher, student, transfer_x))
