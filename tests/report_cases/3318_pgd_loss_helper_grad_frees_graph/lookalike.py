"""Parameter decomposition of a frozen linear layer into rank-one components with learned
causal-importance masks; trained with faithfulness, stochastic-mask and PGD (adversarial-mask)
reconstruction losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

CONFIG = dict(d_in=16, d_out=16, n_components=12, batch=32, steps=6, lr=3e-3,
              pgd_steps=3, pgd_step_size=0.1, coeffs=dict(faithfulness=1.0, stochastic=1.0, pgd=0.5))


class ComponentModel(nn.Module):
    def __init__(self, target: nn.Linear, n_components):
        super().__init__()
        self.target = target
        d_out, d_in = target.weight.shape
        self.U = nn.Parameter(torch.randn(n_components, d_out) * 0.1)
        self.V = nn.Parameter(torch.randn(n_components, d_in) * 0.1)
        self.ci_fn = nn.Sequential(nn.Linear(1, 8), nn.GELU(), nn.Linear(8, 1))

    def component_acts(self, x):
        return x @ self.V.t()  # (B, C)

    def causal_importance(self, x):
        acts = self.component_acts(x).unsqueeze(-1)
        return torch.sigmoid(self.ci_fn(acts)).squeeze(-1)

    def masked_forward(self, x, mask):
        return (self.component_acts(x) * mask) @ self.U


def faithfulness_loss(model):
    return (model.U.t() @ model.V - model.target.weight).pow(2).mean()


def stochastic_recon_loss(model, x, ci):
    mask = ci + (1 - ci) * torch.rand_like(ci)
    return F.mse_loss(model.masked_forward(x, mask), model.target(x))


def pgd_recon_loss(model, x, ci, cfg):
    """Returns (loss, n_examples, grad) so that the PGD metric and the PGD loss share one implementation."""
    target = model.target(x)
    adv = torch.rand_like(ci).requires_grad_(True)
    for _ in range(cfg["pgd_steps"]):
        mask = ci.detach() + (1 - ci.detach()) * adv
        inner = F.mse_loss(model.masked_forward(x, mask), target)
        g, = torch.autograd.grad(inner, adv)
        adv = (adv + cfg["pgd_step_size"] * g.sign()).clamp(0, 1).detach().requires_grad_(True)
    mask = ci + (1 - ci) * adv
    loss = F.mse_loss(model.masked_forward(x, mask), target)
    grad, = torch.autograd.grad(loss, adv, retain_graph=True)
    return loss, x.size(0), grad


def train(cfg):
    target = nn.Linear(cfg["d_in"], cfg["d_out"], bias=False)
    for p in target.parameters():
        p.requires_grad_(False)
    model = ComponentModel(target, cfg["n_components"])
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=cfg["lr"])
    for step in range(cfg["steps"]):
        x = torch.randn(cfg["batch"], cfg["d_in"])
        ci = model.causal_importance(x)
        losses = {"faithfulness": faithfulness_loss(model), "stochastic": stochastic_recon_loss(model, x, ci)}
        pgd_loss, n, _ = pgd_recon_loss(model, x, ci, cfg)
        losses["pgd"] = pgd_loss
        total = sum(cfg["coeffs"][k] * v for k, v in losses.items())
        optimizer.zero_grad()
        total.backward()
        optimizer.step()
        print(f"step {step}: " + ", ".join(f"{k}={v.item():.4f}" for k, v in losses.items()))


if __name__ == "__main__":
    train(CONFIG)
