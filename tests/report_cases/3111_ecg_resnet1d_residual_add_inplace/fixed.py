"""Arrhythmia classification from single-lead ECG windows with a small 1D residual network."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ResBlock1d(nn.Module):
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv1 = nn.Conv1d(cin, cout, 7, stride=stride, padding=3, bias=False)
        self.bn1 = nn.BatchNorm1d(cout)
        self.conv2 = nn.Conv1d(cout, cout, 7, padding=3, bias=False)
        self.bn2 = nn.BatchNorm1d(cout)
        self.relu = nn.ReLU()
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv1d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm1d(cout))

    def forward(self, x):
        res = self.shortcut(x)
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.relu(self.bn2(self.conv2(x)))
        x = x + res
        return x


class ECGNet(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv1d(1, 16, 15, padding=7), nn.BatchNorm1d(16), nn.ReLU())
        self.layers = nn.Sequential(ResBlock1d(16, 16), ResBlock1d(16, 32, stride=2), ResBlock1d(32, 32))
        self.head = nn.Linear(32, n_classes)

    def forward(self, ecg):
        h = self.layers(self.stem(ecg))
        return self.head(h.mean(-1))


def train(epochs=3):
    model = ECGNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    signals = torch.randn(32, 1, 128)
    labels = torch.randint(0, 5, (32,))
    for epoch in range(epochs):
        for i in range(0, 32, 8):
            logits = model(signals[i:i + 8])
            loss = F.cross_entropy(logits, labels[i:i + 8])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")


if __name__ == "__main__":
    train()
