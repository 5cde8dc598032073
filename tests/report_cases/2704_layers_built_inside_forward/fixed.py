import torch
import torch.nn as nn

torch.manual_seed(0)


class DigitClassifier(nn.Module):
    def __init__(self, in_features=64, hidden=32, num_classes=10):
        super().__init__()
        self.in_features, self.hidden, self.num_classes = in_features, hidden, num_classes
        self.fc1 = nn.Linear(in_features, hidden)
        self.fc2 = nn.Linear(hidden, num_classes)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        return self.fc2(x)


def train(model, epochs=3, batches=5):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        running = 0.0
        for _ in range(batches):
            x, y = torch.randn(16, 64), torch.randint(0, 10, (16,))
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}: loss {running / batches:.3f}")


train(DigitClassifier())
