"""GraphCL-style contrastive pre-training of a dense GCN encoder, run by a small trial/controller
framework; validation reports the accuracy of a logistic-regression probe on frozen embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

HPARAMS = {"n_nodes": 10, "feat_dim": 8, "hidden": 32, "n_classes": 3, "batch": 16, "lr": 1e-3,
           "temperature": 0.5, "probe_lr": 1e-2, "probe_steps": 20, "max_steps": 12, "eval_every": 6}


def random_graph_batch(b, n, f, n_classes):
    adj = (torch.rand(b, n, n) < 0.3).float()
    adj = ((adj + adj.transpose(1, 2)) > 0).float() + torch.eye(n)
    y = torch.randint(0, n_classes, (b,))
    x = torch.randn(b, n, f) + y[:, None, None].float() * 0.5
    return x, adj, y


def normalize(adj):
    d = adj.sum(-1).clamp_min(1).rsqrt()
    return d[..., :, None] * adj * d[..., None, :]


class DenseGCN(nn.Module):
    def __init__(self, f, h):
        super().__init__()
        self.l1, self.l2 = nn.Linear(f, h), nn.Linear(h, h)

    def forward(self, x, adj):
        a = normalize(adj)
        h = F.relu(a @ self.l1(x))
        return (a @ self.l2(h)).mean(1)


def augment(x, adj, drop_edge=0.2, mask_feat=0.2):
    keep = (torch.rand_like(adj) > drop_edge).float()
    keep = torch.maximum(keep * keep.transpose(1, 2), torch.eye(adj.size(-1)))
    fmask = (torch.rand(x.size(0), 1, x.size(-1)) > mask_feat).float()
    return x * fmask, adj * keep


def nt_xent(z1, z2, t):
    z1, z2 = F.normalize(z1, dim=1), F.normalize(z2, dim=1)
    logits = z1 @ z2.t() / t
    labels = torch.arange(z1.size(0))
    return 0.5 * (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels))


class GraphCLTrial:
    def __init__(self, hp):
        self.hp = hp
        self.encoder = DenseGCN(hp["feat_dim"], hp["hidden"])
        self.projector = nn.Sequential(nn.Linear(hp["hidden"], hp["hidden"]), nn.ReLU(), nn.Linear(hp["hidden"], hp["hidden"]))
        self.optimizer = torch.optim.Adam(list(self.encoder.parameters()) + list(self.projector.parameters()), lr=hp["lr"])
        self.probe = nn.Linear(hp["hidden"], hp["n_classes"])
        self.probe_optimizer = torch.optim.Adam(self.probe.parameters(), lr=hp["probe_lr"])

    def train_batch(self, batch):
        x, adj, _ = batch
        z1 = self.projector(self.encoder(*augment(x, adj)))
        z2 = self.projector(self.encoder(*augment(x, adj)))
        loss = nt_xent(z1, z2, self.hp["temperature"])
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return {"loss": loss.item()}

    def fit_probe(self, batches):
        for x, adj, y in batches:
            with torch.no_grad():
                emb = self.encoder(x, adj)
            for _ in range(self.hp["probe_steps"]):
                self.probe_optimizer.zero_grad()
                probe_loss = F.cross_entropy(self.probe(emb), y)
                probe_loss.backward()
                self.probe_optimizer.step()

    def evaluate_batch(self, batch):
        x, adj, y = batch
        emb = self.encoder(x, adj)
        acc = (self.probe(emb).argmax(1) == y).float().mean()
        return {"probe_acc": acc.item()}


class Controller:
    def __init__(self, trial, hp):
        self.trial, self.hp = trial, hp
        self.val_batches = [random_graph_batch(64, hp["n_nodes"], hp["feat_dim"], hp["n_classes"]) for _ in range(2)]

    def validate(self):
        self.trial.encoder.eval()
        self.trial.fit_probe(self.val_batches)
        with torch.no_grad():
            metrics = [self.trial.evaluate_batch(b) for b in self.val_batches]
        self.trial.encoder.train()
        return sum(m["probe_acc"] for m in metrics) / len(metrics)

    def run(self):
        for step in range(1, self.hp["max_steps"] + 1):
            batch = random_graph_batch(self.hp["batch"], self.hp["n_nodes"], self.hp["feat_dim"], self.hp["n_classes"])
            out = self.trial.train_batch(batch)
            if step % self.hp["eval_every"] == 0:
                print(f"step {step}: loss={out['loss']:.4f} probe_acc={self.validate():.3f}")


if __name__ == "__main__":
    Controller(GraphCLTrial(HPARAMS), HPARAMS).run()
