import contextlib
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MiniTrainer:
    """Small stand-in for lightning.Trainer: fit() / test() loops."""
    def __init__(self, max_epochs=2, inference_mode=True):
        self.max_epochs = max_epochs
        self.inference_mode = inference_mode

    def fit(self, module, train_loader):
        opt = module.configure_optimizers()
        for _ in range(self.max_epochs):
            for batch_idx, batch in enumerate(train_loader):
                loss = module.training_step(batch, batch_idx)
                opt.zero_grad()
                loss.backward()
                opt.step()

    def test(self, module, test_loader):
        module.eval()
        ctx = torch.inference_mode() if self.inference_mode else torch.no_grad()
        results = []
        with ctx:
            for batch_idx, batch in enumerate(test_loader):
                results.append(module.test_step(batch, batch_idx))
        return results


class KalmanFilterModule(nn.Module):
    """Learned state estimator; at test time it refines the state estimate
    by a few gradient steps on the measurement likelihood."""
    def __init__(self, n_state=4, n_obs=2):
        super().__init__()
        self.transition = nn.Linear(n_state, n_state)
        self.observe = nn.Linear(n_state, n_obs)
        self.gain = nn.Sequential(nn.Linear(n_state + n_obs, 16), nn.Tanh(), nn.Linear(16, n_state))

    def forward(self, x_prev, y):
        x_pred = self.transition(x_prev)
        return x_pred + self.gain(torch.cat([x_pred, y - self.observe(x_pred)], dim=-1))

    def training_step(self, batch, batch_idx):
        x_prev, y, x_true = batch
        return F.mse_loss(self(x_prev, y), x_true)

    def test_step(self, batch, batch_idx):
        x_prev, y, x_true = batch
        x_hat = self(x_prev, y).detach().requires_grad_(True)
        refine_opt = torch.optim.SGD([x_hat], lr=0.1)
        with torch.enable_grad():
            for _ in range(3):
                nll = F.mse_loss(self.observe(x_hat), y)
                refine_opt.zero_grad()
                nll.backward()
                refine_opt.step()
        return F.mse_loss(x_hat, x_true).item()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


def make_loader(n=4):
    out = []
    for _ in range(n):
        x_prev = torch.randn(16, 4)
        x_true = x_prev * 0.9
        out.append((x_prev, x_true[:, :2] + 0.05 * torch.randn(16, 2), x_true))
    return out


model = KalmanFilterModule()
trainer = MiniTrainer(max_epochs=2, inference_mode=False)
trainer.fit(model, make_loader())
print("test mse:", trainer.test(model, make_loader(2)))
