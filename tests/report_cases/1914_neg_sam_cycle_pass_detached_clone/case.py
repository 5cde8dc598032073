"""Age-transformation coach (SAM style): a forward pass to the target age and a cycle
pass back to the source age, each backpropagated separately before one optimizer step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class AgeNet(nn.Module):
    """Encoder conditioned on a target age channel, followed by a frozen 'generator'."""

    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))
        self.decoder = nn.Conv2d(3, 3, 1)
        for p in self.decoder.parameters():
            p.requires_grad = False

    def forward(self, x, target_age):
        age_map = torch.full_like(x[:, :1], target_age)
        return torch.tanh(self.decoder(self.encoder(torch.cat([x, age_map], dim=1))))


class AgingLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.age_regressor = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 1))
        for p in self.age_regressor.parameters():
            p.requires_grad = False

    def forward(self, y_hat, target_age):
        return F.mse_loss(self.age_regressor(y_hat).squeeze(-1), torch.full((y_hat.size(0),), target_age))


class Coach:
    def __init__(self):
        self.net = AgeNet()
        self.aging_loss = AgingLoss()
        self.optimizer = torch.optim.Adam([p for p in self.net.parameters() if p.requires_grad], lr=1e-4)

    def calc_loss(self, x, y, y_hat, target_age):
        loss_l2 = F.mse_loss(y_hat, y)
        loss_aging = self.aging_loss(y_hat, target_age)
        loss = loss_l2 + 0.1 * loss_aging
        return loss, {"loss_l2": loss_l2.item(), "loss_aging": loss_aging.item()}

    def train_step(self, x, source_age, target_age):
        self.optimizer.zero_grad()
        # forward pass to the target age
        y_hat = self.net(x, target_age)
        loss, loss_dict = self.calc_loss(x, x, y_hat, target_age)
        loss.backward()
        # cycle pass back to the source age, starting from a detached copy of y_hat
        y_hat_clone = y_hat.clone().detach().requires_grad_(True)
        y_recovered = self.net(y_hat_clone, source_age)
        loss_cycle, cycle_dict = self.calc_loss(x, x, y_recovered, source_age)
        loss_cycle.backward()
        self.optimizer.step()
        return {**loss_dict, **{k + "_cycle": v for k, v in cycle_dict.items()}}


coach = Coach()
for it in range(3):
    x = torch.rand(4, 3, 8, 8) * 2 - 1
    print(it, coach.train_step(x, source_age=0.3, target_age=0.7))
