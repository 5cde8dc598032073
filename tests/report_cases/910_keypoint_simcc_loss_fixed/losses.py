"""Losses for coordinate-classification heads."""
import torch
import torch.nn.functional as F


class KLDiscretLoss:
    def __init__(self, beta=1.0):
        self.beta = beta

    def criterion(self, dec_outs, labels):
        log_pt = F.log_softmax(dec_outs * self.beta, dim=-1)
        return F.kl_div(log_pt, labels, reduction="none").sum(-1).mean()

    def __call__(self, pred_simcc, gt_simcc):
        loss = 0.0
        for pred, target in zip(pred_simcc, gt_simcc):
            loss = loss + self.criterion(pred, target)
        return loss / len(pred_simcc)


def decode_simcc(pred_x, pred_y):
    with torch.no_grad():
        return torch.stack([pred_x.argmax(-1), pred_y.argmax(-1)], -1)
