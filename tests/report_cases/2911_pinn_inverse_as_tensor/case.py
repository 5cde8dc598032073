"""Inverse problem with a physics-informed network: recover the two unknown coefficients
(lambda1, lambda2) of Burgers' equation u_t + l1 * u * u_x - l2 * u_xx = 0 from data."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class PINN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 1))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))


def as_tensor(data, dtype=None):
    """Backend helper: accept python scalars, lists/tuples or tensors."""
    return torch.as_tensor(data, dtype=dtype)


def pde_residual(model, x, t, aux_vars):
    lambdas = as_tensor(aux_vars, dtype=torch.float32)
    lambdas.requires_grad = True
    u = model(x, t)
    u_x, u_t = torch.autograd.grad(u.sum(), (x, t), create_graph=True)
    u_xx, = torch.autograd.grad(u_x.sum(), x, create_graph=True)
    return u_t + lambdas[0] * u * u_x - lambdas[1] * u_xx


def main():
    model = PINN()
    lambda1 = torch.tensor(0.0, requires_grad=True)
    lambda2 = torch.tensor(-3.0).exp().requires_grad_()
    net_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    coef_opt = torch.optim.Adam([lambda1, lambda2], lr=1e-2)

    x_data, t_data = torch.rand(32, 1) * 2 - 1, torch.rand(32, 1)
    u_data = -torch.sin(torch.pi * x_data) * torch.exp(-t_data)
    for it in range(5):
        x_col = (torch.rand(64, 1) * 2 - 1).requires_grad_()
        t_col = torch.rand(64, 1).requires_grad_()
        res = pde_residual(model, x_col, t_col, (lambda1, lambda2))
        loss = ((model(x_data, t_data) - u_data) ** 2).mean() + (res ** 2).mean()
        net_opt.zero_grad()
        coef_opt.zero_grad()
        loss.backward()
        net_opt.step()
        coef_opt.step()
        print(f"it {it} loss {loss.item():.4f} lambda1 {lambda1.item():.4f} lambda2 {lambda2.item():.4f}")


if __name__ == "__main__":
    main()
