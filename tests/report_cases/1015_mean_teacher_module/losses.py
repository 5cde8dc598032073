import torch.nn.functional as F

NO_LABEL = -1


def softmax_mse_loss(input_logits, target_logits):
    """Takes softmax on both sides and returns MSE loss (summed over classes)."""
    assert input_logits.size() == target_logits.size()
    input_softmax = F.softmax(input_logits, dim=1)
    target_softmax = F.softmax(target_logits, dim=1)
    num_classes = input_logits.size()[1]
    return F.mse_loss(input_softmax, target_softmax, reduction="sum") / num_classes


def class_loss(logits, target):
    return F.cross_entropy(logits, target, ignore_index=NO_LABEL, reduction="sum")
