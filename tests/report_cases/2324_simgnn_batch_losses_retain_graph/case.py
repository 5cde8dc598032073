"""SimGNN-style graph similarity regression on random graph pairs.

`process_batch` sums the per-pair losses of a batch and backpropagates
them once (with retain_graph=True, as in SimGNNTrainer).
"""
import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class GCN(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout)

    def forward(self, x, adj):
        a = adj + torch.eye(adj.shape[0])
        d = a.sum(1).pow(-0.5)
        return (d[:, None] * a * d[None, :]) @ self.lin(x)


class AttentionModule(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight_matrix = nn.Parameter(torch.empty(dim, dim))
        nn.init.xavier_uniform_(self.weight_matrix)

    def forward(self, embedding):
        global_context = torch.tanh(embedding.mean(0) @ self.weight_matrix)
        sigmoid_scores = torch.sigmoid(embedding @ global_context.view(-1, 1))
        return embedding.t() @ sigmoid_scores


class TensorNetworkModule(nn.Module):
    def __init__(self, dim, k):
        super().__init__()
        self.weight_matrix = nn.Parameter(torch.randn(dim, dim, k) * 0.1)
        self.weight_matrix_block = nn.Parameter(torch.randn(k, 2 * dim) * 0.1)
        self.bias = nn.Parameter(torch.zeros(k, 1))

    def forward(self, e1, e2):
        scoring = (e1.t() @ self.weight_matrix.view(e1.shape[0], -1)).view(e1.shape[0], -1)
        scoring = scoring.t() @ e2
        block = self.weight_matrix_block @ torch.cat([e1, e2])
        return F.relu(scoring + block + self.bias)


class SimGNN(nn.Module):
    def __init__(self, num_labels, filters=(32, 16, 8), tensor_neurons=8, bottle_neck=8):
        super().__init__()
        self.convs = nn.ModuleList([GCN(num_labels, filters[0]), GCN(filters[0], filters[1]),
                                    GCN(filters[1], filters[2])])
        self.attention = AttentionModule(filters[2])
        self.tensor_network = TensorNetworkModule(filters[2], tensor_neurons)
        self.fully_connected_first = nn.Linear(tensor_neurons, bottle_neck)
        self.scoring_layer = nn.Linear(bottle_neck, 1)

    def convolutional_pass(self, x, adj):
        for i, conv in enumerate(self.convs):
            x = conv(x, adj)
            if i < len(self.convs) - 1:
                x = F.dropout(F.relu(x), p=0.2, training=self.training)
        return x

    def forward(self, data):
        p1 = self.attention(self.convolutional_pass(data["features_1"], data["adj_1"]))
        p2 = self.attention(self.convolutional_pass(data["features_2"], data["adj_2"]))
        scores = self.tensor_network(p1, p2).t()
        scores = F.relu(self.fully_connected_first(scores))
        return torch.sigmoid(self.scoring_layer(scores)).view(-1)


def random_graph(n, num_labels):
    adj = (torch.rand(n, n) < 0.3).float().triu(1)
    adj = adj + adj.t()
    feats = F.one_hot(torch.randint(0, num_labels, (n,)), num_labels).float()
    return feats, adj


def random_pair(num_labels):
    f1, a1 = random_graph(random.randint(5, 10), num_labels)
    f2, a2 = random_graph(random.randint(5, 10), num_labels)
    ged = abs(a1.sum() - a2.sum()).item() / 2 + abs(len(f1) - len(f2))
    target = torch.tensor([torch.exp(torch.tensor(-ged / (0.5 * (len(f1) + len(f2))))).item()])
    return {"features_1": f1, "adj_1": a1, "features_2": f2, "adj_2": a2, "target": target}


class SimGNNTrainer:
    def __init__(self, args):
        self.args = args
        self.model = SimGNN(args.num_labels)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=args.learning_rate,
                                          weight_decay=args.weight_decay)

    def process_batch(self, batch):
        self.optimizer.zero_grad()
        losses = 0
        for data in batch:
            prediction = self.model(data)
            losses = losses + F.mse_loss(data["target"], prediction)
        losses.backward(retain_graph=True)
        self.optimizer.step()
        return losses.item()

    def fit(self, training_graphs):
        self.model.train()
        for epoch in range(self.args.epochs):
            random.shuffle(training_graphs)
            batches = [training_graphs[i:i + self.args.batch_size]
                       for i in range(0, len(training_graphs), self.args.batch_size)]
            loss_sum, main_index = 0.0, 0
            for batch in batches:
                loss_score = self.process_batch(batch)
                main_index += len(batch)
                loss_sum += loss_score * len(batch)
            print(f"Epoch {epoch}: loss {loss_sum / main_index:.5f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", dest="batch_size", type=int, default=8)
    parser.add_argument("--learning-rate", dest="learning_rate", type=float, default=0.001)
    parser.add_argument("--weight-decay", dest="weight_decay", type=float, default=5e-4)
    parser.add_argument("--num-labels", dest="num_labels", type=int, default=4)
    args = parser.parse_args()
    random.seed(0)
    torch.manual_seed(0)
    trainer = SimGNNTrainer(args)
    trainer.fit([random_pair(args.num_labels) for _ in range(32)])


if __name__ == "__main__":
    main()
