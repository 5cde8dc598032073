"""Semi-supervised node classification with an ARMA graph network on a small citation-style graph."""
import torch
import torch.nn.functional as F
from model import ARMA4NC

torch.manual_seed(0)


def load_graph(n=30, feat_dim=12, n_classes=3):
    adj = (torch.rand(n, n) < 0.15).float()
    adj = ((adj + adj.T) > 0).float()
    deg = adj.sum(1).clamp(min=1)
    norm_adj = adj / deg.sqrt()[:, None] / deg.sqrt()[None, :]
    feats = torch.randn(n, feat_dim)
    labels = torch.randint(0, n_classes, (n,))
    train_mask = torch.zeros(n, dtype=torch.bool)
    train_mask[:12] = True
    return norm_adj, feats, labels, train_mask


def main(epochs=5):
    norm_adj, feats, labels, train_mask = load_graph()
    model = ARMA4NC(feats.size(1), 16, 3)
    opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for epoch in range(epochs):
        model.train()
        logits = model(norm_adj, feats)
        train_loss = F.cross_entropy(logits[train_mask], labels[train_mask])
        opt.zero_grad()
        train_loss.backward()
        opt.step()
        acc = (logits.argmax(1) == labels)[~train_mask].float().mean().item()
        print(f"epoch {epoch} loss {train_loss.item():.4f} val acc {acc:.2f}")


if __name__ == "__main__":
    main()
