import torch
import torch.nn.functional as F


def obtain_label(loader, netF, netB, netC):
    """SHOT self-supervised pseudo-labelling: weighted k-means centroids in feature space.
    Returns the pseudo-labels and the class centroids."""
    all_fea, all_output = [], []
    for inputs in loader:
        feas = netB(netF(inputs))
        all_fea.append(feas)
        all_output.append(netC(feas))
    all_fea = torch.cat(all_fea)
    all_output = F.softmax(torch.cat(all_output), dim=1)
    all_fea = F.normalize(torch.cat([all_fea, torch.ones(all_fea.size(0), 1)], 1), dim=1)
    initc = all_output.t() @ all_fea / (1e-8 + all_output.sum(0)[:, None])
    for _ in range(2):
        pred_label = (all_fea @ F.normalize(initc, dim=1).t()).argmax(1)
        aff = F.one_hot(pred_label, all_output.size(1)).float()
        initc = aff.t() @ all_fea / (1e-8 + aff.sum(0)[:, None])
    return pred_label, initc


def im_loss(outputs):
    softmax_out = F.softmax(outputs, dim=1)
    entropy = -(softmax_out * torch.log(softmax_out + 1e-5)).sum(1).mean()
    msoftmax = softmax_out.mean(0)
    return entropy + (msoftmax * torch.log(msoftmax + 1e-5)).sum()
