# Mixture-of-experts regressor whose first expert is forced always on.
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedExperts(nn.Module):
    def __init__(self, d_in=8, n_experts=4):
        super().__init__()
        self.gate_fc = nn.Linear(d_in, n_experts)
        self.experts = nn.ModuleList([nn.Linear(d_in, 1) for _ in range(n_experts)])

    def forward(self, x):
        gate = torch.sigmoid(self.gate_fc(x))
        # expert 0 is the "shared" expert and must always be active
        gate[:, 0] = 1.0
        outs = torch.cat([expert(x) for expert in self.experts], dim=1)
        return (gate * outs).sum(dim=1, keepdim=True)


def main():
    torch.manual_seed(0)
    model = GatedExperts()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x = torch.randn(32, 8)
    y = torch.randn(32, 1)
    for step in range(5):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
