import numpy as np
import torch
import torch.nn as nn


def reduce_loss(loss, reduction):
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    return loss


def binary_cross_entropy(pred, label, weight=None, reduction='mean'):
    pred_sigmoid = pred.sigmoid()
    pred_sigmoid.clamp_(min=1e-4, max=1 - 1e-4)
    loss = -(label * torch.log(pred_sigmoid) + (1 - label) * torch.log(1 - pred_sigmoid))
    if weight is not None:
        loss = loss * weight
    return reduce_loss(loss, reduction)


class ResampleLoss(nn.Module):
    """Distribution-balanced loss: re-balanced weighting + negative-tolerant regularization."""

    def __init__(self, class_freq, train_num, reweight_func='rebalance',
                 map_param=dict(alpha=0.1, beta=10.0, gamma=0.2),
                 logit_reg=dict(neg_scale=2.0, init_bias=0.05), loss_weight=1.0):
        super(ResampleLoss, self).__init__()
        self.loss_weight = loss_weight
        self.reweight_func = reweight_func
        self.map_alpha = map_param['alpha']
        self.map_beta = map_param['beta']
        self.map_gamma = map_param['gamma']

        self.class_freq = torch.from_numpy(np.asarray(class_freq)).float()
        self.num_classes = self.class_freq.shape[0]
        self.train_num = train_num
        self.neg_scale = logit_reg['neg_scale']
        init_bias = logit_reg['init_bias']
        self.init_bias = -torch.log(self.train_num / self.class_freq - 1) * init_bias / self.neg_scale
        self.freq_inv = torch.ones(self.class_freq.shape) / self.class_freq
        self.propotion_inv = self.train_num / self.class_freq

    def forward(self, cls_score, label, reduction='mean'):
        weight = self.reweight_functions(label)
        cls_score, weight = self.logit_reg_functions(label.float(), cls_score, weight)
        loss = self.loss_weight * binary_cross_entropy(cls_score, label.float(), weight,
                                                       reduction=reduction)
        return loss

    def reweight_functions(self, label):
        if self.reweight_func is None:
            return None
        repeat_rate = torch.sum(label.float() * self.freq_inv, dim=1, keepdim=True)
        pos_weight = self.freq_inv.clone().detach().unsqueeze(0) / repeat_rate
        weight = torch.sigmoid(self.map_beta * (pos_weight - self.map_gamma)) + self.map_alpha
        return weight

    def logit_reg_functions(self, labels, logits, weight=None):
        logits = logits + self.init_bias
        logits = logits * (1 - labels) * self.neg_scale + logits * labels
        if weight is not None:
            weight = weight / self.neg_scale * (1 - labels) + weight * labels
        return logits, weight
