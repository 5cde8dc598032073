# Knowledge distillation where the frozen teacher's outputs are precomputed
# once under no_grad and cached as plain Python lists; only the student trains.
import torch
import torch.nn as nn
import torch.nn.functional as F


def fetch_teacher_outputs(teacher, batches):
    teacher.eval()
    cached = []
    with torch.no_grad():
        for x, _ in batches:
            cached.append(teacher(x).tolist())
    return cached


def loss_fn_kd(outputs, labels, teacher_outputs, alpha=0.7, T=4.0):
    kd = F.kl_div(F.log_softmax(outputs / T, dim=1), F.softmax(teacher_outputs / T, dim=1),
                  reduction="batchmean") * (alpha * T * T)
    return kd + F.cross_entropy(outputs, labels) * (1.0 - alpha)


def train_kd(student, teacher_cache, batches, optimizer):
    student.train()
    summary = []
    for (x, y), t_out in zip(batches, teacher_cache):
        teacher_out = torch.tensor(t_out)
        loss = loss_fn_kd(student(x), y, teacher_out)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        summary.append(loss.item())
    return sum(summary) / len(summary)


if __name__ == "__main__":
    torch.manual_seed(0)
    teacher = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 4))
    student = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 4))
    batches = [(torch.randn(8, 10), torch.randint(0, 4, (8,))) for _ in range(3)]
    cache = fetch_teacher_outputs(teacher, batches)
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    for epoch in range(2):
        print(epoch, train_kd(student, cache, batches, opt))
