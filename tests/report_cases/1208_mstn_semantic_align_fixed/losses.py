"""Losses for moving semantic transfer network (MSTN) style domain adaptation."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SemanticCentroidLoss(nn.Module):
    """Aligns per-class centroids of source and target features.

    Centroids are kept as exponential moving averages across mini-batches so that
    classes missing from a batch still contribute.
    """

    def __init__(self, num_classes, feat_dim, decay=0.3):
        super().__init__()
        self.num_classes = num_classes
        self.decay = decay
        self.s_centroid = torch.zeros(num_classes, feat_dim)
        self.t_centroid = torch.zeros(num_classes, feat_dim)

    def _batch_centroids(self, feats, labels):
        onehot = F.one_hot(labels, self.num_classes).float()
        counts = onehot.sum(0).clamp(min=1.0).unsqueeze(1)
        return onehot.t().mm(feats) / counts

    def forward(self, s_feat, s_labels, t_feat, t_logits):
        t_pseudo = t_logits.argmax(dim=1)
        current_s = self._batch_centroids(s_feat, s_labels)
        current_t = self._batch_centroids(t_feat, t_pseudo)

        decay = self.decay
        s_centroid = (1 - decay) * self.s_centroid + decay * current_s
        t_centroid = (1 - decay) * self.t_centroid + decay * current_t
        loss = F.mse_loss(s_centroid, t_centroid)

        self.s_centroid = s_centroid.detach()
        self.t_centroid = t_centroid.detach()
        return loss


def adaptation_weight(step, total_steps, gamma=10.0):
    p = step / max(total_steps, 1)
    return 2.0 / (1.0 + torch.exp(torch.tensor(-gamma * p)).item()) - 1.0
