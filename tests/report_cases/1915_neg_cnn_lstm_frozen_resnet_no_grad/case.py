"""CNN-LSTM video classifier: a (pretrained, frozen) CNN embeds each frame under
torch.no_grad(), an LSTM aggregates the frame embeddings and a head classifies the clip.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class CNNLSTM(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.resnet = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
                                    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 32))
        self.lstm = nn.LSTM(input_size=32, hidden_size=24, num_layers=2)
        self.fc1 = nn.Linear(24, 16)
        self.fc2 = nn.Linear(16, num_classes)

    def forward(self, x_3d):
        hidden = None
        for t in range(x_3d.size(1)):
            with torch.no_grad():
                x = self.resnet(x_3d[:, t, :, :, :])
            out, hidden = self.lstm(x.unsqueeze(0), hidden)
        x = F.relu(self.fc1(out[-1, :, :]))
        return self.fc2(x)


def train_epoch(model, data_loader, criterion, optimizer):
    model.train()
    losses = []
    for clips, targets in data_loader:
        optimizer.zero_grad()
        outputs = model(clips)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return sum(losses) / len(losses)


model = CNNLSTM()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = [(torch.randn(2, 5, 3, 16, 16), torch.randint(0, 3, (2,))) for _ in range(3)]
for epoch in range(2):
    print(epoch, train_epoch(model, loader, criterion, optimizer))
