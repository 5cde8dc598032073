"""Graph attention network for graph classification on a dataset of small
random graphs, written against a tiny DGL-like Graph container whose ndata /
edata dictionaries carry node and edge tensors between layers."""
import contextlib
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
IN_DIM, HID, HEADS = 8, 16, 2


class Graph:
    def __init__(self, src, dst, num_nodes):
        self.src, self.dst, self.num_nodes = src, dst, num_nodes
        self.ndata, self.edata = {}, {}

    @contextlib.contextmanager
    def local_scope(self):
        saved = (self.ndata, self.edata)
        self.ndata, self.edata = dict(self.ndata), dict(self.edata)
        try:
            yield self
        finally:
            self.ndata, self.edata = saved


def edge_softmax(g, scores):
    exp = (scores - scores.max()).exp()
    denom = torch.zeros(g.num_nodes, scores.size(1)).index_add(0, g.dst, exp)
    return exp / denom[g.dst].clamp(min=1e-9)


class GATLayer(nn.Module):
    def __init__(self, in_dim, out_dim, heads):
        super().__init__()
        self.fc = nn.Linear(in_dim, heads * out_dim, bias=False)
        self.attn_l = nn.Parameter(torch.randn(1, heads, out_dim) * 0.1)
        self.attn_r = nn.Parameter(torch.randn(1, heads, out_dim) * 0.1)
        self.heads, self.out_dim = heads, out_dim

    def forward(self, g, h):
        z = self.fc(h).view(-1, self.heads, self.out_dim)
        g.ndata["z"] = z
        el, er = (z * self.attn_l).sum(-1), (z * self.attn_r).sum(-1)
        g.edata["a"] = edge_softmax(g, F.leaky_relu(el[g.src] + er[g.dst], 0.2))
        msg = g.edata["a"].unsqueeze(-1) * g.ndata["z"][g.src]
        g.ndata["h"] = torch.zeros_like(z).index_add(0, g.dst, msg)
        return F.elu(g.ndata["h"].flatten(1))


class GATClassifier(nn.Module):
    def __init__(self, n_classes=2):
        super().__init__()
        self.layer1 = GATLayer(IN_DIM, HID, HEADS)
        self.layer2 = GATLayer(HID * HEADS, HID, HEADS)
        self.readout = nn.Linear(HID * HEADS, n_classes)

    def forward(self, g, feat):
        with g.local_scope():
            h = self.layer2(g, self.layer1(g, feat))
        return self.readout(h.mean(0, keepdim=True))


def random_graph():
    n = int(torch.randint(6, 14, (1,)))
    src = torch.randint(0, n, (3 * n,))
    dst = torch.randint(0, n, (3 * n,))
    loops = torch.arange(n)
    g = Graph(torch.cat([src, loops]), torch.cat([dst, loops]), n)
    feat = torch.randn(n, IN_DIM)
    label = int((src == dst).sum() > 2)
    return g, feat, label


def main(epochs=2):
    dataset = [random_graph() for _ in range(40)]
    model = GATClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(epochs):
        total = 0.0
        for g, feat, label in dataset:
            logits = model(g, feat)
            loss = F.cross_entropy(logits, torch.tensor([label]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: mean loss {total / len(dataset):.4f}")


if __name__ == "__main__":
    main()
