import torch
import torch.nn.functional as F


def genb_loss(pred_g, answers, disc):
    # bias model imitates the answers and tries to fool the discriminator
    fit = F.binary_cross_entropy_with_logits(pred_g, answers)
    d_fake = disc(pred_g)
    adv = F.binary_cross_entropy_with_logits(d_fake, torch.ones_like(d_fake))
    return fit + 0.1 * adv


def discriminator_loss(disc, real_pred, fake_pred):
    d_real = disc(real_pred)
    d_fake = disc(fake_pred)
    return (F.binary_cross_entropy_with_logits(d_real, torch.ones_like(d_real))
            + F.binary_cross_entropy_with_logits(d_fake, torch.zeros_like(d_fake)))


def debiased_loss(pred, pred_g, answers):
    # down-weight the answers the bias model already predicts well
    weight = 1.0 - torch.sigmoid(pred_g) * answers
    return F.binary_cross_entropy_with_logits(pred, answers, weight=weight)
