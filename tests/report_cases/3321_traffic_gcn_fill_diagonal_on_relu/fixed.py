"""Adaptive-graph convolutional recurrent network for traffic speed forecasting (AGCRN-style),
with a learned node-embedding adjacency and a self-loop ('stay') cost on the diagonal."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

CONFIG = {"num_nodes": 12, "in_dim": 2, "hidden": 16, "embed_dim": 6, "cheb_k": 2, "horizon": 3,
          "window": 8, "batch": 16, "epochs": 6, "lr": 3e-3, "stay_cost": 0.5}


class AdaptiveGraph(nn.Module):
    def __init__(self, num_nodes, embed_dim, stay_cost):
        super().__init__()
        self.node_embeddings = nn.Parameter(torch.randn(num_nodes, embed_dim) * 0.3)
        self.stay_cost = stay_cost

    def forward(self):
        E = self.node_embeddings
        eye = torch.eye(E.size(0), dtype=E.dtype)
        supports = F.relu(torch.mm(E, E.t())) * (1 - eye)
        supports = supports / (supports.sum(-1, keepdim=True) + 1e-6)
        supports = supports * (1 - eye) + self.stay_cost * eye
        return supports


class AGCN(nn.Module):
    def __init__(self, dim_in, dim_out, cheb_k):
        super().__init__()
        self.cheb_k = cheb_k
        self.weights = nn.Parameter(torch.randn(cheb_k, dim_in, dim_out) * 0.1)
        self.bias = nn.Parameter(torch.zeros(dim_out))

    def forward(self, x, supports):
        support_set = [torch.eye(supports.size(0)), supports]
        for _ in range(2, self.cheb_k):
            support_set.append(2 * supports @ support_set[-1] - support_set[-2])
        x_g = torch.stack([torch.einsum("nm,bmc->bnc", s, x) for s in support_set[: self.cheb_k]], 1)
        return torch.einsum("bknc,kco->bno", x_g, self.weights) + self.bias


class AGCRNCell(nn.Module):
    def __init__(self, dim_in, hidden, cheb_k):
        super().__init__()
        self.hidden = hidden
        self.gate = AGCN(dim_in + hidden, 2 * hidden, cheb_k)
        self.update = AGCN(dim_in + hidden, hidden, cheb_k)

    def forward(self, x, state, supports):
        zr = torch.sigmoid(self.gate(torch.cat([x, state], -1), supports))
        z, r = zr.split(self.hidden, -1)
        hc = torch.tanh(self.update(torch.cat([x, r * state], -1), supports))
        return z * state + (1 - z) * hc


class TrafficForecaster(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.graph = AdaptiveGraph(cfg["num_nodes"], cfg["embed_dim"], cfg["stay_cost"])
        self.cell = AGCRNCell(cfg["in_dim"], cfg["hidden"], cfg["cheb_k"])
        self.proj = nn.Linear(cfg["hidden"], cfg["horizon"])

    def forward(self, x):
        supports = self.graph()
        state = x.new_zeros(x.size(0), x.size(2), self.cell.hidden)
        for t in range(x.size(1)):
            state = self.cell(x[:, t], state, supports)
        return self.proj(state).transpose(1, 2)


def make_batch(cfg):
    x = torch.randn(cfg["batch"], cfg["window"], cfg["num_nodes"], cfg["in_dim"])
    y = x[:, -cfg["horizon"]:, :, 0] * 0.5 + 0.1 * torch.randn(cfg["batch"], cfg["horizon"], cfg["num_nodes"])
    return x, y


class Trainer:
    def __init__(self, model, cfg):
        self.model, self.cfg = model, cfg
        self.optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])

    def train_epoch(self, epoch):
        self.model.train()
        x, y = make_batch(self.cfg)
        pred = self.model(x)
        loss = F.l1_loss(pred, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        print(f"epoch {epoch}: mae={loss.item():.4f}")


if __name__ == "__main__":
    trainer = Trainer(TrafficForecaster(CONFIG), CONFIG)
    for epoch in range(CONFIG["epochs"]):
        trainer.train_epoch(epoch)
