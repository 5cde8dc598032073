"""Learning edge masks that explain a frozen-architecture GNN classifier (node pooling + edge pooling)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from pooling_fixed import EdgePooling

torch.manual_seed(0)


class GraphClassifier(nn.Module):
    def __init__(self, in_channels=8, hidden=16, num_classes=3):
        super().__init__()
        self.lin1 = nn.Linear(in_channels, hidden)
        self.lin2 = nn.Linear(hidden, hidden)
        self.readout = nn.Linear(hidden, num_classes)

    def forward(self, x, edge_index, edge_weight):
        n = x.size(0)
        adj = torch.zeros(n, n).index_put((edge_index[0], edge_index[1]), edge_weight, accumulate=True)
        adj = adj + torch.eye(n)
        h = F.relu(self.lin1(adj @ x))
        h = F.relu(self.lin2(adj @ h))
        return self.readout(h.mean(0, keepdim=True))


def random_graph(num_nodes=12, num_edges=30, in_channels=8):
    x = torch.randn(num_nodes, in_channels)
    edge_index = torch.randint(0, num_nodes, (2, num_edges))
    y = torch.randint(0, 3, (1,))
    return x, edge_index, y


class Explainer:
    def __init__(self, model, lr=0.01):
        self.model = model
        self.edge_pool = EdgePooling(in_channels=8, ratio=0.6)
        self.pool_optimizer = torch.optim.Adam(self.edge_pool.parameters(), lr=lr)
        self.model_optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def warm_start(self, graph):
        """Score the first graph once with a throw-away scorer to pick the initial top-k ratio."""
        with torch.no_grad():
            probe = type(self.edge_pool.node_eval)(graph[0].size(1))
            _, score = probe(graph[0], graph[1])
        self.edge_pool.ratio = 0.5 if score.mean() < 0 else 0.6

    def train(self, graphs, epochs=5):
        for epoch in range(epochs):
            total = 0.0
            for x, edge_index, y in graphs:
                self.pool_optimizer.zero_grad()
                self.model_optimizer.zero_grad()
                x_p, kept_edges, edge_score = self.edge_pool(x, edge_index)
                logits = self.model(x_p, kept_edges, edge_score)
                loss = F.cross_entropy(logits, y) + 0.01 * edge_score.sum()
                loss.backward()
                self.pool_optimizer.step()
                self.model_optimizer.step()
                total += loss.item()
            print(f"epoch {epoch}: loss {total / len(graphs):.4f}")


if __name__ == "__main__":
    graphs = [random_graph() for _ in range(8)]
    explainer = Explainer(GraphClassifier())
    explainer.warm_start(graphs[0])
    w0 = explainer.edge_pool.node_eval.score_gnn.weight.detach().clone()
    explainer.train(graphs)
    print("node scorer change:", (explainer.edge_pool.node_eval.score_gnn.weight - w0).abs().sum().item())
