import torch.nn.functional as F


def density_loss(pred, gt_density):
    # pixel-wise MSE plus a count-consistency term per class
    mse = F.mse_loss(pred, gt_density)
    count_err = (pred.sum(dim=(2, 3)) - gt_density.sum(dim=(2, 3))).abs().mean()
    return mse + 0.01 * count_err
