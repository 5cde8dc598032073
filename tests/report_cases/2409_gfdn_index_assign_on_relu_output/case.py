"""GFDN-style group fraud detection on a user-item bipartite graph: an
autoencoder over user features is fused layer by layer into a GraphSAGE stack."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class SAGEConv(nn.Module):
    """Mean-aggregation GraphSAGE layer on a dense normalised adjacency."""

    def __init__(self, in_feature, out_feature):
        super().__init__()
        self.lin_l = nn.Linear(in_feature, out_feature)
        self.lin_r = nn.Linear(in_feature, out_feature, bias=False)

    def forward(self, x, adj):
        return self.lin_l(adj @ x) + self.lin_r(x)


class SAGE_NET(nn.Module):
    def __init__(self, in_feature, out_feature):
        super().__init__()
        self.gcn = SAGEConv(in_feature, out_feature)

    def forward(self, x, adj, active=True):
        x = self.gcn(x, adj)
        if active:
            x = F.relu(x)
        return x


class AE(nn.Module):
    def __init__(self, n_enc, hidden, n_input, n_z):
        super().__init__()
        self.enc_in = nn.Linear(n_input, n_enc)
        self.hidden_enc = nn.ModuleList([nn.Linear(n_enc, n_enc) for _ in range(hidden)])
        self.z_layer = nn.Linear(n_enc, n_z)
        self.dec = nn.Sequential(nn.Linear(n_z, n_enc), nn.ReLU(), nn.Linear(n_enc, n_input))

    def forward(self, x):
        enc_result = [F.relu(self.enc_in(x))]
        for layer in self.hidden_enc:
            enc_result.append(F.relu(layer(enc_result[-1])))
        z = self.z_layer(enc_result[-1])
        return self.dec(z), enc_result, z


class GNN(nn.Module):
    def __init__(self, n_input, n_enc, hidden, n_z, n_clusters):
        super().__init__()
        self.ae = AE(n_enc, hidden, n_input, n_z)
        self.gnn_in = SAGE_NET(n_input, n_enc)
        self.hidden_gnn = nn.ModuleList([SAGE_NET(n_enc, n_enc) for _ in range(hidden)])
        self.gnn_nz = SAGE_NET(n_enc, n_z)
        self.gnn_cluster = SAGE_NET(n_z, n_clusters)
        self.to_label = nn.Sequential(nn.Linear(n_clusters, n_clusters // 2), nn.ReLU(),
                                      nn.Linear(n_clusters // 2, 2))

    def forward(self, x, edge_u_x, edge_u_id, adj):
        x_bar, h, z = self.ae(edge_u_x)
        x = self.gnn_in(x, adj)
        for i, layer in enumerate(self.hidden_gnn):
            x[edge_u_id] = x[edge_u_id] + h[i]
            x = layer(x, adj)
        x[edge_u_id] = x[edge_u_id] + h[-1]
        x = self.gnn_nz(x, adj)
        x[edge_u_id] = x[edge_u_id] + z
        x = self.gnn_cluster(x, adj, active=False)
        x = torch.sigmoid(x[edge_u_id])
        return self.to_label(x), x_bar


def make_graph(n_user, n_item, n_feat, n_edges):
    u = torch.randint(0, n_user, (n_edges,))
    i = torch.randint(0, n_item, (n_edges,)) + n_user
    n = n_user + n_item
    adj = torch.zeros(n, n)
    adj[u, i] = 1.0
    adj[i, u] = 1.0
    adj = adj / adj.sum(1, keepdim=True).clamp(min=1)
    return adj, torch.randn(n_user, n_feat), torch.randn(n_item, n_feat)


def train(model, optimizer, adj, u_x, i_x, labels, args):
    n_user = u_x.shape[0]
    n = adj.shape[0]
    u_id_mask = torch.arange(n) < n_user
    x = torch.zeros(n, u_x.shape[1])
    x[u_id_mask] = u_x
    x[~u_id_mask] = i_x
    edge_u_id = torch.nonzero(adj[:n_user].sum(1) > 0).squeeze(1)
    edge_u_x = x[edge_u_id]

    model.train()
    optimizer.zero_grad()
    logits, x_bar = model(x, edge_u_x, edge_u_id, adj)
    label_loss = F.cross_entropy(logits, labels[edge_u_id])
    ae_loss = F.mse_loss(x_bar, edge_u_x)
    loss = args.ll * label_loss + args.al * ae_loss
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n_user", type=int, default=120)
    parser.add_argument("--n_item", type=int, default=60)
    parser.add_argument("--n_feat", type=int, default=16)
    parser.add_argument("--hidden_dim", type=int, default=32)
    parser.add_argument("--hidden", type=int, default=1)
    parser.add_argument("--n_z", type=int, default=16)
    parser.add_argument("--n_clusters", type=int, default=8)
    parser.add_argument("--epoch", type=int, default=5)
    parser.add_argument("--ll", type=float, default=1.0)
    parser.add_argument("--al", type=float, default=0.2)
    args = parser.parse_args()
    torch.manual_seed(10)

    adj, u_x, i_x = make_graph(args.n_user, args.n_item, args.n_feat, 400)
    labels = (u_x[:, 0] > 1.0).long()
    model = GNN(args.n_feat, args.hidden_dim, args.hidden, args.n_z, args.n_clusters)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(1, args.epoch + 1):
        print(f"{epoch} loss:{train(model, optimizer, adj, u_x, i_x, labels, args):.5f}")


if __name__ == "__main__":
    main()
