"""Knowledge distillation on a synthetic 5-class problem: a wide teacher is
trained first, its soft predictions for the training batches are cached to
save compute, and a small student is trained with the Hinton KD loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
IN_DIM, N_CLASSES = 20, 5


def make_loader(n=480, batch=48):
    w = torch.randn(IN_DIM, N_CLASSES)
    x = torch.randn(n, IN_DIM)
    y = (x @ w + 0.5 * torch.randn(n, N_CLASSES)).argmax(1)
    return [(x[i : i + batch], y[i : i + batch]) for i in range(0, n, batch)]


def mlp(hidden):
    return nn.Sequential(nn.Linear(IN_DIM, hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(hidden, N_CLASSES))


def loss_fn_kd(student_logits, labels, teacher_logits, alpha=0.9, T=4.0):
    soft = F.kl_div(F.log_softmax(student_logits / T, dim=1), F.softmax(teacher_logits / T, dim=1),
                    reduction="batchmean") * (alpha * T * T)
    return soft + F.cross_entropy(student_logits, labels) * (1.0 - alpha)


def train_teacher(teacher, loader, epochs=2):
    opt = torch.optim.SGD(teacher.parameters(), lr=0.1, momentum=0.9)
    for _ in range(epochs):
        for x, y in loader:
            loss = F.cross_entropy(teacher(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


def fetch_teacher_outputs(teacher, loader):
    teacher.eval()
    return [teacher(x) for x, _ in loader]


def train_student_kd(student, loader, teacher_outputs, epochs=2):
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    for epoch in range(epochs):
        student.train()
        total = 0.0
        for i, (x, y) in enumerate(loader):
            loss = loss_fn_kd(student(x), y, teacher_outputs[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: kd loss {total / len(loader):.4f}")


def main():
    loader = make_loader()
    teacher, student = mlp(256), mlp(16)
    train_teacher(teacher, loader)
    teacher_outputs = fetch_teacher_outputs(teacher, loader)
    train_student_kd(student, loader, teacher_outputs)


if __name__ == "__main__":
    main()
