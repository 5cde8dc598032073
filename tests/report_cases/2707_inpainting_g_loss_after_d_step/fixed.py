import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
config = {"lr": 1e-4, "l1_loss_alpha": 1.2, "gan_loss_alpha": 0.001, "wgan_gp_lambda": 10, "n_critic": 2}


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.ELU(), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())

    def forward(self, x, mask):
        return self.net(torch.cat([x, mask], 1))


class GlobalDis(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(8 * 8 * 8, 1))

    def forward(self, x):
        return self.net(x)


class Trainer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.netG, self.globalD = Generator(), GlobalDis()
        self.optimizer_g = torch.optim.Adam(self.netG.parameters(), lr=config["lr"], betas=(0.5, 0.9))
        self.optimizer_d = torch.optim.Adam(self.globalD.parameters(), lr=config["lr"], betas=(0.5, 0.9))

    def calc_gradient_penalty(self, real, fake):
        alpha = torch.rand(real.size(0), 1, 1, 1)
        interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
        grads = torch.autograd.grad(self.globalD(interp).sum(), interp, create_graph=True)[0]
        return ((grads.flatten(1).norm(2, dim=1) - 1) ** 2).mean()

    def forward(self, x, masks, ground_truth, compute_loss_g):
        losses = {}
        x_out = self.netG(x, masks)
        x_inpaint = x_out * masks + x * (1.0 - masks)
        # D part
        real_pred, fake_pred = self.globalD(ground_truth), self.globalD(x_inpaint.detach())
        losses["wgan_d"] = fake_pred.mean() - real_pred.mean()
        losses["wgan_gp"] = self.calc_gradient_penalty(ground_truth, x_inpaint.detach())
        # G part
        if compute_loss_g:
            losses["l1"] = F.l1_loss(x_inpaint, ground_truth)
        return losses, x_inpaint


trainer = Trainer(config)
for iteration in range(1, 7):
    ground_truth = torch.rand(2, 3, 16, 16) * 2 - 1
    masks = torch.zeros(2, 1, 16, 16)
    masks[:, :, 4:12, 4:12] = 1.0
    x = ground_truth * (1.0 - masks)
    compute_g_loss = iteration % config["n_critic"] == 0
    losses, inpainted_result = trainer(x, masks, ground_truth, compute_g_loss)

    trainer.optimizer_d.zero_grad()
    losses["d"] = losses["wgan_d"] + losses["wgan_gp"] * config["wgan_gp_lambda"]
    losses["d"].backward()
    trainer.optimizer_d.step()

    if compute_g_loss:
        trainer.optimizer_g.zero_grad()
        losses["wgan_g"] = -trainer.globalD(inpainted_result).mean()
        losses["g"] = losses["l1"] * config["l1_loss_alpha"] + losses["wgan_g"] * config["gan_loss_alpha"]
        losses["g"].backward()
        trainer.optimizer_g.step()
