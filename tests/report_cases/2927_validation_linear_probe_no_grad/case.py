"""Self-supervised encoder (SimSiam-style) trained with a small loop; at every validation a
callback fits a linear probe on the frozen features to report probe accuracy."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
        self.predictor = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8))

    def forward(self, x):
        return self.backbone(x)


class LinearProbeCallback:
    def __init__(self, n_classes=3, steps=20):
        self.n_classes, self.steps = n_classes, steps

    def _init_and_train_layer(self, feats, labels):
        layer = nn.Linear(feats.shape[1], self.n_classes)
        opt = torch.optim.SGD(layer.parameters(), lr=0.5)
        for _ in range(self.steps):
            loss = F.cross_entropy(layer(feats), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        return (layer(feats).argmax(1) == labels).float().mean().item()

    def on_validation_epoch_end(self, model, val_x, val_y):
        feats = model(val_x)
        return self._init_and_train_layer(feats, val_y)


def simsiam_loss(model, x):
    x1, x2 = x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x)
    z1, z2 = model(x1), model(x2)
    p1, p2 = model.predictor(z1), model.predictor(z2)
    return -(F.cosine_similarity(p1, z2.detach()).mean() + F.cosine_similarity(p2, z1.detach()).mean()) / 2


def fit(epochs=2):
    model, probe = Encoder(), LinearProbeCallback()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    train_x = torch.randn(32, 16)
    val_x, val_y = torch.randn(24, 16), torch.randint(0, 3, (24,))
    for epoch in range(epochs):
        model.train()
        for i in range(0, 32, 8):
            loss = simsiam_loss(model, train_x[i:i + 8])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():  # validation: no gradients for the encoder
            acc = probe.on_validation_epoch_end(model, val_x, val_y)
        print(f"epoch {epoch} ssl loss {loss.item():.4f} probe acc {acc:.2f}")


if __name__ == "__main__":
    fit()
