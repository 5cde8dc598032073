import torch
import torch.optim as optim

from fixed_src.loss_criterions import GDPPLoss, WGANGP
from networks import DNet, GNet


class BaseGAN:
    def __init__(self, config):
        self.config = config
        self.netG = GNet(config['dimLatentVector'], config['depthScale0'])
        self.netD = DNet(config['depthScale0'])
        self.optimizerG = optim.Adam(self.netG.parameters(), betas=(0.0, 0.99), lr=config['learningRate'])
        self.optimizerD = optim.Adam(self.netD.parameters(), betas=(0.0, 0.99), lr=config['learningRate'])
        self.lossCriterion = WGANGP()

    def buildNoiseData(self, n):
        return torch.randn(n, self.config['dimLatentVector'])

    def optimizeParameters(self, input_batch):
        allLosses = {}
        self.real_input = input_batch
        n_samples = self.real_input.size(0)

        # Update the discriminator
        self.optimizerD.zero_grad()
        predRealD = self.netD(self.real_input, False)
        lossD = self.lossCriterion.getCriterion(predRealD, True)
        allLosses["lossD_real"] = lossD.item()

        inputLatent = self.buildNoiseData(n_samples)
        predFakeG = self.netG(inputLatent).detach()
        predFakeD = self.netD(predFakeG, False)
        lossDFake = self.lossCriterion.getCriterion(predFakeD, False)
        allLosses["lossD_fake"] = lossDFake.item()
        lossD += lossDFake

        lossEpsilon = (predRealD[:, 0] ** 2).sum() * self.config['epsilonD']
        lossD += lossEpsilon
        lossD.backward()
        self.optimizerD.step()

        # Update the generator
        self.optimizerG.zero_grad()
        self.optimizerD.zero_grad()

        inputNoise = self.buildNoiseData(n_samples)
        predFakeG = self.netG(inputNoise)
        predFakeD, phiGFake = self.netD(predFakeG, True)

        lossGFake = self.lossCriterion.getCriterion(predFakeD, True)
        allLosses["lossG_fake"] = lossGFake.item()
        lossG = lossGFake

        if self.config['GDPP']:
            _, phiDReal = self.netD.forward(self.real_input, True)
            lossGDPP = GDPPLoss(phiGFake, phiDReal.detach(), backward=False)
            allLosses["lossG_GDPP"] = lossGDPP.item()
            lossG = lossG + lossGDPP

        lossG.backward()
        self.optimizerG.step()
        return allLosses
