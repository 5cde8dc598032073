"""Small BaseGAN-style trainer with the optional GDPP (determinantal point process) loss.

The generator step backpropagates the adversarial loss first and then the GDPP loss
computed from the discriminator features of the same fake batch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Discriminator(nn.Module):
    def __init__(self, dim_in=16, dim_feat=32):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(dim_in, dim_feat), nn.LeakyReLU(0.2))
        self.decision = nn.Linear(dim_feat, 1)

    def forward(self, x, getFeature=False):
        feat = self.features(x)
        out = self.decision(feat)
        if getFeature:
            return out, feat
        return out


def GDPPLoss(phiFake, phiReal, backward=True):
    def compute_diversity(phi):
        phi = F.normalize(phi, p=2, dim=1)
        SB = torch.mm(phi, phi.t())
        eigVals, eigVecs = torch.linalg.eigh(SB)
        return eigVals, eigVecs

    fakeEig, fakeVecs = compute_diversity(phiFake)
    realEig, realVecs = compute_diversity(phiReal)
    magnitudeLoss = 0.0001 * F.mse_loss(fakeEig, realEig)
    structureLoss = -torch.sum(torch.mul(fakeVecs, realVecs), 0).mean()
    loss = magnitudeLoss + structureLoss
    if backward:
        loss.backward()
        return loss.item()
    return loss


class BaseGAN:
    def __init__(self, dimLatent=8, dimOut=16, GDPP=True):
        self.dimLatent = dimLatent
        self.netG = nn.Sequential(nn.Linear(dimLatent, 32), nn.ReLU(), nn.Linear(32, dimOut))
        self.netD = Discriminator(dimOut)
        self.optimizerG = torch.optim.Adam(self.netG.parameters(), lr=1e-3, betas=(0.0, 0.99))
        self.optimizerD = torch.optim.Adam(self.netD.parameters(), lr=1e-3, betas=(0.0, 0.99))
        self.GDPP = GDPP

    def optimizeParameters(self, input_batch):
        allLosses = {}
        n = input_batch.size(0)
        # Update the discriminator
        self.optimizerD.zero_grad()
        predRealD = self.netD(input_batch)
        inputLatent = torch.randn(n, self.dimLatent)
        predFakeG = self.netG(inputLatent).detach()
        predFakeD = self.netD(predFakeG)
        lossD = F.softplus(-predRealD).mean() + F.softplus(predFakeD).mean()
        lossD.backward()
        self.optimizerD.step()
        allLosses["lossD"] = lossD.item()

        # Update the generator
        self.optimizerG.zero_grad()
        self.optimizerD.zero_grad()
        inputNoise = torch.randn(n, self.dimLatent)
        predFakeG = self.netG(inputNoise)
        predFakeD, phiGFake = self.netD(predFakeG, True)
        lossGFake = F.softplus(-predFakeD).mean()
        lossG = lossGFake
        allLosses["lossG"] = lossGFake.item()

        if self.GDPP:
            _, phiDReal = self.netD(input_batch, True)
            lossGDPP = GDPPLoss(phiGFake, phiDReal.detach(), backward=False)
            lossG = lossG + lossGDPP
            allLosses["lossGDPP"] = lossGDPP.item()

        lossG.backward()

        self.optimizerG.step()
        return allLosses


if __name__ == "__main__":
    gan = BaseGAN()
    data = torch.randn(64, 16) * 0.5 + 1.0
    for it in range(4):
        batch = data[torch.randint(0, 64, (12,))]
        losses = gan.optimizeParameters(batch)
        print(it, {k: round(v, 4) for k, v in losses.items()})
