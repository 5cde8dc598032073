"""LSGAN criterion and the generator / discriminator objectives."""
import torch


class GANLoss:
    def __call__(self, pred, target_is_real):
        target = torch.ones_like(pred) if target_is_real else torch.zeros_like(pred)
        return ((pred - target) ** 2).mean()


def backward_D_basic(netD, real, fake, criterion):
    loss_real = criterion(netD(real), True)
    loss_fake = criterion(netD(fake.detach()), False)
    loss_D = 0.5 * (loss_real + loss_fake)
    loss_D.backward()
    return loss_D


def backward_G(netD, fake, source, criterion, lambda_rec=5.0):
    loss_adv = criterion(netD(fake), True)
    loss_rec = (fake - source).abs().mean()
    loss_G = loss_adv + lambda_rec * loss_rec
    loss_G.backward()
    return loss_G
