"""GAN trainer with the optional GDPP (Generative Determinantal Point Process) diversity loss
on discriminator features, in the style of pytorch_GAN_zoo's BaseGAN.optimizeParameters."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def GDPPLoss(phiFake, phiReal, backward=True):
    def compute_diversity(phi):
        phi = F.normalize(phi, p=2, dim=1)
        SB = torch.mm(phi, phi.t())
        eigVals, eigVecs = torch.linalg.eigh(SB)
        return eigVals, eigVecs

    def normalize_min_max(eigVals):
        minV, maxV = torch.min(eigVals), torch.max(eigVals)
        return (eigVals - minV) / (maxV - minV)

    fakeEigVals, fakeEigVecs = compute_diversity(phiFake)
    realEigVals, realEigVecs = compute_diversity(phiReal)
    magnitudeLoss = 0.0001 * F.mse_loss(target=realEigVals, input=fakeEigVals)
    structureLoss = -torch.sum(torch.mul(fakeEigVecs, realEigVecs), 0)
    normalizedRealEigVals = normalize_min_max(realEigVals)
    weightedStructureLoss = torch.sum(torch.mul(normalizedRealEigVals, structureLoss))
    gdppLoss = magnitudeLoss + weightedStructureLoss
    if backward:
        gdppLoss.backward(retain_graph=True)
    return gdppLoss.item()


class Generator(nn.Module):
    def __init__(self, dimLatent=8, dimOut=16):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(dimLatent, 32), nn.LeakyReLU(0.2), nn.Linear(32, dimOut))

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self, dimIn=16):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(dimIn, 32), nn.LeakyReLU(0.2), nn.Linear(32, 12), nn.LeakyReLU(0.2))
        self.decision = nn.Linear(12, 1)

    def forward(self, x, getFeature=False):
        phi = self.features(x)
        out = self.decision(phi)
        return (out, phi) if getFeature else out


class BaseGAN:
    def __init__(self, gdpp=True):
        self.netG, self.netD = Generator(), Discriminator()
        self.optimizerG = torch.optim.Adam(self.netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.optimizerD = torch.optim.Adam(self.netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.gdpp = gdpp
        self.criterion = nn.BCEWithLogitsLoss()

    def optimizeParameters(self, real_input):
        n_samples = real_input.size(0)
        # Update the discriminator
        self.optimizerD.zero_grad()
        predRealD = self.netD(real_input)
        lossD = self.criterion(predRealD, torch.ones_like(predRealD))
        inputLatent = torch.randn(n_samples, 8)
        predFakeG = self.netG(inputLatent).detach()
        predFakeD = self.netD(predFakeG)
        lossD = lossD + self.criterion(predFakeD, torch.zeros_like(predFakeD))
        lossD.backward()
        self.optimizerD.step()

        # Update the generator
        self.optimizerG.zero_grad()
        self.optimizerD.zero_grad()
        inputLatent = torch.randn(n_samples, 8)
        predFakeG = self.netG(inputLatent)
        predFakeD, phiGFake = self.netD(predFakeG, True)
        lossGFake = self.criterion(predFakeD, torch.ones_like(predFakeD))
        lossGFake.backward(retain_graph=True)
        if self.gdpp:
            _, phiDReal = self.netD(real_input, True)
            GDPPLoss(phiGFake, phiDReal, backward=True)
        self.optimizerG.step()
        return lossD.item(), lossGFake.item()


if __name__ == "__main__":
    data = torch.randn(64, 16) * 0.5 + 1.0
    gan = BaseGAN(gdpp=True)
    for it in range(6):
        batch = data[torch.randint(0, 64, (8,))]
        lossD, lossG = gan.optimizeParameters(batch)
        print(f"iter {it}: lossD {lossD:.4f} lossG {lossG:.4f}")
