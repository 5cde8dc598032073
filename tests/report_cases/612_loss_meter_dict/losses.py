import torch.nn.functional as F


def compute_loss(scores, target, occupancy):
    """Returns a dict of named loss terms plus their sum under 'total'."""
    loss = {}
    loss["semantic"] = F.cross_entropy(scores, target)
    occ_logit = scores.logsumexp(dim=1)
    loss["occupancy"] = F.binary_cross_entropy_with_logits(occ_logit, occupancy)
    loss["total"] = loss["semantic"] + 0.5 * loss["occupancy"]
    return loss
