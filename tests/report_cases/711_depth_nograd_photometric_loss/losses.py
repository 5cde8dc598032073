"""Losses and metrics. compute_depth_losses is also used by the validation loop."""
import torch


@torch.no_grad()
def compute_depth_losses(pred, target, alpha=0.85):
    """Scale-invariant log error blended with an L1 term."""
    d = torch.log(pred) - torch.log(target)
    si_log = (d ** 2).mean() - 0.5 * d.mean() ** 2
    l1 = (pred - target).abs().mean()
    return {"loss": alpha * si_log + (1 - alpha) * l1, "si_log": si_log, "l1": l1}


def abs_rel(pred, target):
    return ((pred - target).abs() / target).mean()


def rmse_log(pred, target):
    return torch.sqrt(((torch.log(pred) - torch.log(target)) ** 2).mean())


def threshold_accuracy(pred, target, thr=1.25):
    ratio = torch.maximum(pred / target, target / pred)
    return (ratio < thr).float().mean()
