# Triplet network with an L2-normalised embedding (EmbeddingNetL2 style).
import torch
import torch.nn as nn
import torch.nn.functional as F


class EmbeddingNet(nn.Module):
    def __init__(self, in_dim=20, emb_dim=8):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(in_dim, 32), nn.PReLU(), nn.Linear(32, emb_dim))

    def forward(self, x):
        return self.fc(x)


class EmbeddingNetL2(EmbeddingNet):
    def forward(self, x):
        output = super().forward(x)
        output /= output.pow(2).sum(1, keepdim=True).sqrt()
        return output


class TripletNet(nn.Module):
    def __init__(self, embedding_net):
        super().__init__()
        self.embedding_net = embedding_net

    def forward(self, a, p, n):
        return self.embedding_net(a), self.embedding_net(p), self.embedding_net(n)


class TripletLoss(nn.Module):
    def __init__(self, margin):
        super().__init__()
        self.margin = margin

    def forward(self, anchor, positive, negative):
        d_pos = (anchor - positive).pow(2).sum(1)
        d_neg = (anchor - negative).pow(2).sum(1)
        return F.relu(d_pos - d_neg + self.margin).mean()


def fit(model, loss_fn, optimizer, n_epochs=3):
    torch.manual_seed(1)
    anchors = torch.randn(16, 20)
    positives = anchors + 0.1 * torch.randn(16, 20)
    negatives = torch.randn(16, 20)
    for epoch in range(n_epochs):
        optimizer.zero_grad()
        outputs = model(anchors, positives, negatives)
        loss = loss_fn(*outputs)
        loss.backward()
        optimizer.step()
        print("epoch", epoch, "loss", loss.item())


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TripletNet(EmbeddingNetL2())
    fit(model, TripletLoss(margin=1.0), torch.optim.Adam(model.parameters(), lr=1e-3))
