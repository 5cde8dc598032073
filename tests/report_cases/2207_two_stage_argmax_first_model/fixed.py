import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_PROTOTYPES = 8


class PrototypeSelector(nn.Module):
    """First stage: decides which prototype (mode) an input belongs to."""

    def __init__(self, in_dim=16, hidden=64, n_protos=N_PROTOTYPES):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_protos))

    def forward(self, x):
        return self.net(x)


class ConditionedRegressor(nn.Module):
    """Second stage: regresses the target from the input and the selected prototype."""

    def __init__(self, in_dim=16, n_protos=N_PROTOTYPES, code_dim=8, out_dim=4):
        super().__init__()
        self.codebook = nn.Embedding(n_protos, code_dim)
        self.head = nn.Sequential(nn.Linear(in_dim + code_dim, 64), nn.ReLU(), nn.Linear(64, out_dim))

    def forward(self, x, proto_onehot):
        # one-hot (straight-through) selection times the codebook == embedding lookup in the forward
        code = proto_onehot @ self.codebook.weight
        return self.head(torch.cat([x, code], dim=1))


def make_data(n, centers, W):
    mode = torch.randint(0, N_PROTOTYPES, (n,))
    x = centers[mode] + 0.3 * torch.randn(n, 16)
    y = torch.einsum('nij,nj->ni', W[mode], x)
    return x, y


def main():
    centers = 2 * torch.randn(N_PROTOTYPES, 16)
    W = torch.randn(N_PROTOTYPES, 4, 16) * 0.3
    first_model = PrototypeSelector()
    second_model = ConditionedRegressor()
    first_optimizer = torch.optim.Adam(first_model.parameters(), lr=1e-3)
    second_optimizer = torch.optim.Adam(second_model.parameters(), lr=1e-3)

    for epoch in range(3):
        for it in range(10):
            x, y = make_data(64, centers, W)
            first_model.zero_grad()
            second_model.zero_grad()

            logits = first_model(x)
            # hard prototype choice in the forward, differentiable (Gumbel-softmax) in the backward
            y_p = F.gumbel_softmax(logits, tau=1.0, hard=True)
            pred = second_model(x, y_p)
            loss = F.mse_loss(pred, y)
            loss.backward()

            first_optimizer.step()
            second_optimizer.step()

        grads = [p.grad for p in first_model.parameters()]
        print(f"epoch {epoch} loss {loss.item():.4f} "
              f"first_model grads: {['None' if g is None else round(g.norm().item(), 4) for g in grads]}")


if __name__ == '__main__':
    main()
