"""Cross-view geo-localisation toy: CNN with a unit-subtraction keypoint attention map."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class USAM(nn.Module):
    """Unit subtraction attention module producing a keypoint saliency map."""

    def __init__(self, channels, polish=True):
        super().__init__()
        self.polish = polish
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv_att = nn.Conv2d(1, 1, 3, padding=1)
        self.bn = nn.BatchNorm2d(1)

    def forward(self, x):
        y = self.conv(x)
        diff = (x - y).abs().mean(dim=1, keepdim=True)
        att = F.relu(self.bn(self.conv_att(diff)))
        if self.polish:
            att[:, :, :, 0] = 0
            att[:, :, :, -1] = 0
            att[:, :, 0, :] = 0
            att[:, :, -1, :] = 0
        return x * torch.sigmoid(att)


class Backbone(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.usam = USAM(8)
        self.block = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(16, n_classes)

    def forward(self, x):
        x = self.usam(self.stem(x))
        x = self.pool(self.block(x)).flatten(1)
        return self.classifier(x)


class TwoViewNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.satellite = Backbone(n_classes)
        self.drone = Backbone(n_classes)

    def forward(self, sat, drone):
        return self.satellite(sat), self.drone(drone)


def train(num_epochs=2, n_classes=5, batch=6):
    model = TwoViewNet(n_classes)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4, nesterov=True)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.1)
    for epoch in range(num_epochs):
        running_loss = 0.0
        for _ in range(2):
            labels = torch.randint(0, n_classes, (batch,))
            sat = torch.rand(batch, 3, 16, 16)
            drone = torch.rand(batch, 3, 16, 16)
            optimizer.zero_grad()
            out_sat, out_drone = model(sat, drone)
            loss = criterion(out_sat, labels) + criterion(out_drone, labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item() * batch
        scheduler.step()
        print(f"epoch {epoch}: loss {running_loss / (2 * batch):.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train()
