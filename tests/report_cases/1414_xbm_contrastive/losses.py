import torch


def contrastive_loss(q, q_labels, ref, ref_labels, pos_margin=0.0, neg_margin=0.5):
    sim = q @ ref.t()
    pos_mask = (q_labels[:, None] == ref_labels[None, :]).float()
    neg_mask = 1.0 - pos_mask
    pos_loss = ((1 - sim - pos_margin).clamp(min=0) * pos_mask).sum() / pos_mask.sum().clamp(min=1)
    neg_loss = ((sim - neg_margin).clamp(min=0) * neg_mask).sum() / neg_mask.sum().clamp(min=1)
    return pos_loss + neg_loss
