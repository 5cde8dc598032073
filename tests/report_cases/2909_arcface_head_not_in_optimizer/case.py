"""Face-recognition training with ArcFace (additive angular margin) on synthetic identities."""
import torch
import torch.nn as nn
from models import FaceEmbedder
from metrics import ArcMarginProduct

torch.manual_seed(0)
NUM_IDENTITIES = 8


def train(epochs=3):
    model = FaceEmbedder(dim=32)
    metric_fc = ArcMarginProduct(32, NUM_IDENTITIES, s=30, m=0.5)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    w0 = metric_fc.weight.detach().clone()

    images = torch.randn(32, 1, 12, 12)
    labels = torch.arange(32) % NUM_IDENTITIES
    for epoch in range(epochs):
        model.train()
        for i in range(0, 32, 8):
            feature = model(images[i:i + 8])
            output = metric_fc(feature, labels[i:i + 8])
            loss = criterion(output, labels[i:i + 8])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = (output.argmax(1) == labels[i:i + 8]).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.3f} acc {acc:.2f}")
    print("class-centre (metric_fc) weight change:", (metric_fc.weight - w0).abs().max().item())


if __name__ == "__main__":
    train()
