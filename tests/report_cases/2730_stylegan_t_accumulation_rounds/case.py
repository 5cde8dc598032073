import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
batch_size, batch_gpu = 16, 4
num_accumulation_rounds = batch_size // batch_gpu


class StyleGANLoss:
    def __init__(self, G, D):
        self.G, self.D = G, D

    def accumulate_gradients(self, phase, real_img, gen_z, gain):
        if phase == "Gmain":
            gen_img = self.G(gen_z)
            loss_Gmain = F.softplus(-self.D(gen_img)).mean()
            loss_Gmain.mul(gain).backward()
        elif phase == "Dmain":
            gen_img = self.G(gen_z).detach()
            loss_Dgen = F.softplus(self.D(gen_img)).mean()
            loss_Dreal = F.softplus(-self.D(real_img)).mean()
            (loss_Dgen + loss_Dreal).mul(gain).backward()


G = nn.Sequential(nn.Linear(8, 32), nn.LeakyReLU(0.2), nn.Linear(32, 12))
D = nn.Sequential(nn.Linear(12, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
phases = [dict(name="Gmain", module=G, opt=torch.optim.Adam(G.parameters(), lr=2e-4)),
          dict(name="Dmain", module=D, opt=torch.optim.Adam(D.parameters(), lr=2e-4))]
loss = StyleGANLoss(G, D)

for tick in range(3):
    phase_real_img = torch.randn(batch_size, 12).split(batch_gpu)
    for phase in phases:
        phase_gen_z = torch.randn(batch_size, 8).split(batch_gpu)
        phase["opt"].zero_grad(set_to_none=True)
        phase["module"].requires_grad_(True)
        for real_img, gen_z in zip(phase_real_img, phase_gen_z):
            loss.accumulate_gradients(phase=phase["name"], real_img=real_img, gen_z=gen_z,
                                      gain=1.0 / num_accumulation_rounds)
        phase["module"].requires_grad_(False)
        phase["opt"].step()
