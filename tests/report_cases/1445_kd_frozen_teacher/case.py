"""Knowledge distillation from a frozen teacher into a smaller student (Hinton et al. loss)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

params = {"temperature": 4.0, "alpha": 0.9, "learning_rate": 1e-3, "num_epochs": 2, "batch_size": 16}


class DeepNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(nn.Linear(16 * 4 * 4, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, num_classes))

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))


class LightNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(nn.Linear(8 * 4 * 4, 32), nn.ReLU(), nn.Linear(32, num_classes))

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))


def loss_fn_kd(outputs, labels, teacher_outputs, p):
    T, alpha = p["temperature"], p["alpha"]
    soft = nn.KLDivLoss(reduction="batchmean")(F.log_softmax(outputs / T, dim=1), F.softmax(teacher_outputs / T, dim=1))
    return soft * (alpha * T * T) + F.cross_entropy(outputs, labels) * (1.0 - alpha)


def train_kd(student, teacher, batches, p):
    optimizer = torch.optim.Adam(student.parameters(), lr=p["learning_rate"])
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=p["num_epochs"])
    teacher.eval()
    teacher.requires_grad_(False)
    student.train()
    for epoch in range(p["num_epochs"]):
        running_loss = 0.0
        for inputs, labels in batches:
            optimizer.zero_grad()
            teacher_logits = teacher(inputs)
            student_logits = student(inputs)
            loss = loss_fn_kd(student_logits, labels, teacher_logits, p)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        scheduler.step()
        print(f"Epoch {epoch + 1}/{p['num_epochs']}, Loss: {running_loss / len(batches):.4f}")


if __name__ == "__main__":
    torch.manual_seed(42)
    batches = [(torch.randn(params["batch_size"], 3, 8, 8), torch.randint(0, 10, (params["batch_size"],))) for _ in range(3)]
    teacher = DeepNN()
    student = LightNN()
    train_kd(student, teacher, batches, params)
