"""Metric learning with an auxiliary classifier (TrainWithClassifier style):
trunk -> embedder -> embeddings; a contrastive loss on normalized embeddings
plus a cross-entropy loss from a small MLP classifier on the same embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    # layer_sizes[0] is the input dim, layer_sizes[-1] the output dim
    def __init__(self, layer_sizes, final_relu=False):
        super().__init__()
        layer_list = []
        num_layers = len(layer_sizes) - 1
        final_relu_layer = num_layers if final_relu else num_layers - 1
        for i in range(len(layer_sizes) - 1):
            curr_size, next_size = layer_sizes[i], layer_sizes[i + 1]
            if i < final_relu_layer:
                layer_list.append(nn.ReLU(inplace=True))
            layer_list.append(nn.Linear(curr_size, next_size))
        self.net = nn.Sequential(*layer_list)

    def forward(self, x):
        return self.net(x)


def contrastive_loss(embeddings, labels, pos_margin=0.0, neg_margin=1.0):
    emb = F.normalize(embeddings, p=2, dim=1)
    dist = torch.cdist(emb, emb)
    same = labels[:, None] == labels[None, :]
    eye = torch.eye(len(labels), dtype=torch.bool)
    pos = F.relu(dist[same & ~eye] - pos_margin)
    neg = F.relu(neg_margin - dist[~same])
    return pos.mean() + neg.mean()


class TrainWithClassifier:
    def __init__(self, models, optimizers, loss_weights):
        self.models, self.optimizers, self.loss_weights = models, optimizers, loss_weights
        self.losses = {}

    def compute_embeddings(self, data):
        return self.models["embedder"](self.models["trunk"](data))

    def calculate_loss(self, data, labels):
        embeddings = self.compute_embeddings(data)
        self.losses["metric_loss"] = contrastive_loss(embeddings, labels)
        logits = self.models["classifier"](embeddings)
        self.losses["classifier_loss"] = F.cross_entropy(logits, labels)

    def backward(self):
        total = sum(self.loss_weights[k] * v for k, v in self.losses.items())
        total.backward()

    def train_step(self, data, labels):
        for opt in self.optimizers.values():
            opt.zero_grad()
        self.calculate_loss(data, labels)
        self.backward()
        for opt in self.optimizers.values():
            opt.step()
        return {k: v.item() for k, v in self.losses.items()}


def main():
    torch.manual_seed(0)
    trunk = nn.Sequential(nn.Linear(20, 32), nn.BatchNorm1d(32), nn.ReLU())
    models = {
        "trunk": trunk,
        "embedder": MLP([32, 16]),
        "classifier": MLP([16, 16, 4]),
    }
    optimizers = {f"{k}_optimizer": torch.optim.Adam(m.parameters(), lr=1e-3) for k, m in models.items()}
    trainer = TrainWithClassifier(models, optimizers, {"metric_loss": 1.0, "classifier_loss": 0.5})
    for it in range(4):
        labels = torch.arange(4).repeat(3)
        data = torch.randn(12, 20) + labels[:, None].float()
        print(it, trainer.train_step(data, labels))


if __name__ == "__main__":
    main()
