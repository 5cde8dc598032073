import torch
import torch.nn.functional as F


def task_loss(logits, labels, C):
    return F.cross_entropy(logits[:, :C], labels) + F.cross_entropy(logits[:, C:], labels)


def domain_discrimination(logits_s, logits_t, C):
    """Classifier side: source mass on Cs, target mass on Ct."""
    ps, pt = F.softmax(logits_s, 1), F.softmax(logits_t, 1)
    return -(ps[:, :C].sum(1) + 1e-6).log().mean() - (pt[:, C:].sum(1) + 1e-6).log().mean()


def category_confusion(logits_s, labels, C):
    """Feature-extractor side: source sample equally likely as class y in Cs and Ct."""
    logp = F.log_softmax(logits_s, 1)
    return -0.5 * (logp.gather(1, labels.view(-1, 1)) + logp.gather(1, (labels + C).view(-1, 1))).mean()


def domain_confusion(logits_t, C):
    pt = F.softmax(logits_t, 1)
    return -0.5 * ((pt[:, :C].sum(1) + 1e-6).log() + (pt[:, C:].sum(1) + 1e-6).log()).mean()


def target_entropy(logits_t, C):
    p = F.softmax(logits_t[:, :C] + logits_t[:, C:], 1)
    return -(p * (p + 1e-6).log()).sum(1).mean()
