import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
opt = {"use_amp": True, "pixel_weight": 1.0, "perceptual_weight": 0.1, "gan_weight": 0.005}


class SRModel:
    def __init__(self, opt):
        self.net_g = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))
        self.net_d = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(8 * 8 * 8, 1))
        self.feat = nn.Conv2d(3, 4, 3, padding=1).requires_grad_(False)
        self.optimizer_g = torch.optim.AdamW(self.net_g.parameters(), lr=1e-4)
        self.optimizer_d = torch.optim.AdamW(self.net_d.parameters(), lr=1e-4)
        self.gradscaler_g = torch.amp.GradScaler("cpu", enabled=opt["use_amp"])
        self.gradscaler_d = torch.amp.GradScaler("cpu", enabled=opt["use_amp"])
        self.opt = opt

    def optimize_parameters(self, lq, gt):
        for p in self.net_d.parameters():
            p.requires_grad = False
        self.optimizer_g.zero_grad()
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=self.opt["use_amp"]):
            output = self.net_g(lq)
            loss_list = []
            loss_list.append(self.opt["pixel_weight"] * F.l1_loss(output.float(), gt))
            loss_list.append(self.opt["perceptual_weight"] * F.l1_loss(self.feat(output).float(), self.feat(gt).float()))
            loss_list.append(self.opt["gan_weight"] * F.softplus(-self.net_d(output)).float().mean())
        l_g_total = sum(loss_list)
        for i, loss in enumerate(loss_list):
            retain = i < len(loss_list) - 1
            self.gradscaler_g.scale(loss).backward(retain_graph=retain)
        self.gradscaler_g.step(self.optimizer_g)
        self.gradscaler_g.update()

        for p in self.net_d.parameters():
            p.requires_grad = True
        self.optimizer_d.zero_grad()
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=self.opt["use_amp"]):
            l_d_real = F.softplus(-self.net_d(gt)).float().mean()
            l_d_fake = F.softplus(self.net_d(output.detach())).float().mean()
        self.gradscaler_d.scale(l_d_real).backward()
        self.gradscaler_d.scale(l_d_fake).backward()
        self.gradscaler_d.step(self.optimizer_d)
        self.gradscaler_d.update()
        return l_g_total.item()


model = SRModel(opt)
for it in range(4):
    gt = torch.rand(2, 3, 16, 16)
    model.optimize_parameters(gt + 0.1 * torch.randn_like(gt), gt)
