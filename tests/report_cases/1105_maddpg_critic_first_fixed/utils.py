import copy

import torch


def make_target(net):
    target = copy.deepcopy(net)
    for p in target.parameters():
        p.requires_grad_(False)
    return target


@torch.no_grad()
def soft_update(target, source, tau):
    for tp, sp in zip(target.parameters(), source.parameters()):
        tp.mul_(1 - tau).add_(tau * sp)
