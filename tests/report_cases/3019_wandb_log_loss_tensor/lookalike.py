"""SimCLR-style contrastive pretraining of a small encoder on tabular vectors with two noise
augmentations and an NT-Xent loss; metrics go to a wandb-like run object that buffers the
logged rows in its history until they are flushed at the end of the run."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def graph_size(tensors):
    stack, seen = [getattr(t, "grad_fn", None) for t in tensors], set()
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class Run:
    """Minimal stand-in for wandb.init(): log() appends the row to an in-memory history."""

    def __init__(self, project, config):
        self.project, self.config, self.history, self.step = project, config, [], 0

    def log(self, row):
        self.history.append(dict(row, _step=self.step))
        self.step += 1

    def held_graph_nodes(self):
        return graph_size([v for row in self.history for v in row.values() if isinstance(v, torch.Tensor)])

    def finish(self):
        print(f"flushing {len(self.history)} rows, last loss {float(self.history[-1]['loss']):.4f}")


class Encoder(nn.Module):
    def __init__(self, in_dim=24, hidden=64, proj=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
                                      nn.Linear(hidden, hidden), nn.ReLU())
        self.projector = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, proj))

    def forward(self, x):
        return self.projector(self.backbone(x))


def augment(x):
    mask = (torch.rand_like(x) > 0.2).float()
    return x * mask + 0.1 * torch.randn_like(x)


def nt_xent(z1, z2, temperature=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / temperature
    n = z1.shape[0]
    sim = sim.masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


def main():
    config = {"lr": 3e-3, "batch_size": 32, "epochs": 2, "temperature": 0.5}
    run = Run(project="simclr-tabular", config=config)
    data = torch.randn(128, 24)
    model = Encoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=config["lr"])
    for epoch in range(config["epochs"]):
        perm = torch.randperm(len(data))
        for i in range(0, len(data), config["batch_size"]):
            x = data[perm[i:i + config["batch_size"]]]
            loss = nt_xent(model(augment(x)), model(augment(x)), config["temperature"])
            optimizer.zero_grad()
            loss.backward()
            grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
            run.log({"loss": loss.item(), "grad_norm": grad_norm, "epoch": epoch})
        print(f"epoch {epoch}: graph nodes held by run.history = {run.held_graph_nodes()}")
    run.finish()


if __name__ == "__main__":
    main()
