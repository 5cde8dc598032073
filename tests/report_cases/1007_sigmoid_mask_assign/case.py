import torch
import torch.nn as nn
import torch.nn.functional as F


class OccupancyHead(nn.Module):
    """Predicts a per-cell occupancy probability from a small BEV feature map."""

    def __init__(self, in_ch=4, width=8):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(in_ch, width, 3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(width, 1, 1),
        )

    def forward(self, bev, valid_mask):
        prob = torch.sigmoid(self.body(bev)).squeeze(1)
        # cells outside the sensor range are never occupied
        prob[~valid_mask] = 0.0
        return prob


class Trainer:
    def __init__(self, model, lr=1e-2, log_every=2):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.log_every = log_every
        self.history = []

    def training_step(self, batch):
        bev, valid, target = batch
        prob = self.model(bev, valid)
        return F.binary_cross_entropy(prob, target)

    def fit(self, loader, epochs):
        for epoch in range(epochs):
            self.model.train()
            for i, batch in enumerate(loader):
                self.optimizer.zero_grad(set_to_none=True)
                loss = self.training_step(batch)
                loss.backward()
                self.optimizer.step()
                self.history.append(loss.item())
                if i % self.log_every == 0:
                    print(f"epoch {epoch} it {i} bce {self.history[-1]:.4f}")

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        return sum(self.training_step(b).item() for b in loader) / len(loader)


def make_loader(n=4, b=4, size=12):
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    in_range = ((yy - size / 2) ** 2 + (xx - size / 2) ** 2) < (size / 2) ** 2
    out = []
    for _ in range(n):
        bev = torch.randn(b, 4, size, size)
        valid = in_range.expand(b, size, size).clone()
        target = ((bev[:, 0] > 0.5) & valid).float()
        out.append((bev, valid, target))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    loader = make_loader()
    trainer = Trainer(OccupancyHead())
    trainer.fit(loader, epochs=2)
    print("val", trainer.evaluate(loader))
