"""Original (Scarselli-style) graph neural network for node classification:
node states are iterated T times with a shared transition function, then an
output function classifies each node. Node-by-node updates on a toy graph."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_NODES, FEAT, STATE, CLASSES = 12, 4, 8, 2


def build_graph():
    edges = [(i, (i + 1) % N_NODES) for i in range(N_NODES)]
    edges += [(i, (i + 3) % N_NODES) for i in range(0, N_NODES, 2)]
    edges += [(v, u) for u, v in edges]
    src = torch.tensor([u for u, _ in edges])
    dst = torch.tensor([v for _, v in edges])
    feats = torch.randn(N_NODES, FEAT)
    labels = (feats[:, 0] + feats[:, 1] > 0).long()
    return feats, src, dst, labels


class Transition(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2 * FEAT + STATE, 16), nn.Tanh(), nn.Linear(16, STATE), nn.Tanh())

    def forward(self, x, h, src, dst):
        msg = self.mlp(torch.cat([x[dst], x[src], h[src]], dim=1))
        agg = torch.zeros(x.size(0), STATE).index_add(0, dst, msg)
        deg = torch.bincount(dst, minlength=x.size(0)).clamp(min=1).unsqueeze(1)
        return agg / deg


class OriginalGNN(nn.Module):
    def __init__(self, T=5):
        super().__init__()
        self.T = T
        self.f = Transition()
        self.g = nn.Linear(STATE + FEAT, CLASSES)

    def forward(self, x, src, dst):
        h = torch.zeros(x.size(0), STATE)
        for _ in range(self.T):
            h = self.f(x, h, src, dst)
        return self.g(torch.cat([h, x], dim=1))


def train(model, feats, src, dst, labels, train_nodes, epochs=6):
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        out = model(feats, src, dst)
        total = 0.0
        for node in train_nodes:
            loss = F.cross_entropy(out[node : node + 1], labels[node : node + 1])
            optimizer.zero_grad()
            loss.backward(retain_graph=True)
            optimizer.step()
            total += loss.item()
        acc = (out.argmax(1) == labels).float().mean().item()
        print(f"epoch {epoch}: loss {total / len(train_nodes):.3f} acc {acc:.2f}")


def main():
    feats, src, dst, labels = build_graph()
    model = OriginalGNN(T=5)
    train_nodes = list(range(0, N_NODES, 2))
    train(model, feats, src, dst, labels, train_nodes)


if __name__ == "__main__":
    main()
