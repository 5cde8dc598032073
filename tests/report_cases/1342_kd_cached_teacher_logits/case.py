"""Offline knowledge distillation: teacher logits are computed once and reused every epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TEMPERATURE = 4.0
ALPHA = 0.7
EPOCHS = 3
BATCH = 16


def make_teacher():
    return nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 5))


def make_student():
    return nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 5))


def kd_loss(student_logits, teacher_logits, labels, T=TEMPERATURE, alpha=ALPHA):
    soft = F.kl_div(F.log_softmax(student_logits / T, dim=-1), F.log_softmax(teacher_logits / T, dim=-1),
                    log_target=True, reduction="batchmean") * T * T
    hard = F.cross_entropy(student_logits, labels)
    return alpha * soft + (1 - alpha) * hard


def precompute_teacher_logits(teacher, inputs, chunk=16):
    teacher.eval()
    outs = []
    with torch.no_grad():
        for x in inputs.split(chunk):
            outs.append(teacher(x))
    return torch.cat(outs)


def main():
    torch.manual_seed(0)
    inputs = torch.randn(48, 10)
    labels = torch.randint(0, 5, (48,))
    teacher = make_teacher()
    cached_logits = precompute_teacher_logits(teacher, inputs)

    student = make_student()
    opt = torch.optim.Adam(student.parameters(), lr=3e-3)
    for epoch in range(EPOCHS):
        perm = torch.randperm(inputs.size(0))
        total = 0.0
        for idx in perm.split(BATCH):
            logits = student(inputs[idx])
            loss = kd_loss(logits, cached_logits[idx], labels[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * idx.numel()
        agree = (student(inputs).argmax(1) == cached_logits.argmax(1)).float().mean().item()
        print(f"epoch {epoch}: kd loss {total / inputs.size(0):.4f} teacher agreement {agree:.2f}")


if __name__ == "__main__":
    main()
