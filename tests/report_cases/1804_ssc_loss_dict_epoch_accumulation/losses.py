import torch
import torch.nn as nn
import torch.nn.functional as F


def class_weights(class_frequencies, eps=1e-3):
    return 1.0 / torch.log(class_frequencies + eps)


def compute_loss(scores, data, weights):
    target_1_1 = data["label_1_1"]
    target_1_2 = data["label_1_2"]
    criterion = nn.CrossEntropyLoss(weight=weights, ignore_index=255)
    loss_1_1 = criterion(scores["pred_semantic_1_1"], target_1_1)
    loss_1_2 = criterion(scores["pred_semantic_1_2"], target_1_2)
    loss_sc = F.binary_cross_entropy_with_logits(
        -scores["pred_semantic_1_1"][:, 0], (target_1_1 > 0).float())
    total = (3 * loss_1_1 + 2 * loss_1_2 + loss_sc) / 6
    return {"total": total, "semantic_1_1": loss_1_1, "semantic_1_2": loss_1_2, "completion": loss_sc}
