from dataclasses import dataclass

import torch
import torch.nn.functional as F

from networks import Discriminator, Generator, gdpp_loss


@dataclass
class Config:
    dim_latent: int = 16
    dim_data: int = 32
    batch_size: int = 16
    lr: float = 2e-4
    n_iters: int = 3
    GDPP: bool = True
    lambda_gdpp: float = 1.0


class BaseGAN:
    def __init__(self, cfg):
        self.cfg = cfg
        self.netG = Generator(cfg.dim_latent, cfg.dim_data)
        self.netD = Discriminator(cfg.dim_data)
        self.optimizerG = torch.optim.Adam(self.netG.parameters(), lr=cfg.lr, betas=(0.0, 0.99))
        self.optimizerD = torch.optim.Adam(self.netD.parameters(), lr=cfg.lr, betas=(0.0, 0.99))

    def buildNoiseData(self, n):
        return torch.randn(n, self.cfg.dim_latent)

    def optimizeParameters(self, input_batch):
        n = input_batch.size(0)
        ones = torch.ones(n, 1)
        zeros = torch.zeros(n, 1)

        # discriminator update
        self.optimizerD.zero_grad()
        predReal = self.netD(input_batch)
        lossD = F.binary_cross_entropy_with_logits(predReal, ones)
        inputLatent = self.buildNoiseData(n)
        predRealG = self.netG(inputLatent).detach()
        predFake = self.netD(predRealG)
        lossD = lossD + F.binary_cross_entropy_with_logits(predFake, zeros)
        lossD.backward()
        self.optimizerD.step()

        # generator update
        self.optimizerG.zero_grad()
        self.optimizerD.zero_grad()
        inputNoise = self.buildNoiseData(n)
        predFakeG = self.netG(inputNoise)
        predFakeD, phiGFake = self.netD(predFakeG, True)
        lossGFake = F.binary_cross_entropy_with_logits(predFakeD, ones)
        lossGFake.backward(retain_graph=True)

        if self.cfg.GDPP:
            _, phiDReal = self.netD(input_batch, True)
            lossGDPP = gdpp_loss(phiGFake, phiDReal.detach()) * self.cfg.lambda_gdpp
            lossGDPP.backward()

        self.optimizerG.step()
        return {"lossD": lossD.item(), "lossG": lossGFake.item()}


def main():
    torch.manual_seed(0)
    cfg = Config()
    gan = BaseGAN(cfg)
    for it in range(cfg.n_iters):
        real = torch.randn(cfg.batch_size, cfg.dim_data).tanh()
        stats = gan.optimizeParameters(real)
        print(it, {k: round(v, 4) for k, v in stats.items()})


if __name__ == "__main__":
    main()
