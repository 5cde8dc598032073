"""Feature helpers shared by training and analysis scripts."""
import torch


def standardize(feat, mean, var, eps=1e-5):
    """Whiten features with running statistics (out of place: feat is saved for backward)."""
    return (feat - mean) / torch.sqrt(var + eps)


def decorrelation_loss(feat):
    cov = feat.T @ feat / feat.size(0)
    off_diag = cov - torch.diag(torch.diagonal(cov))
    return (off_diag ** 2).mean()


def feature_stats(features):
    """Summary numbers for logging; never part of the loss."""
    return {name: {"mean": f.mean().item(), "std": f.std().item()} for name, f in features.items()}


def cosine_similarity_matrix(feat, eps=1e-8):
    normed = feat / (feat.norm(dim=1, keepdim=True) + eps)
    return normed @ normed.T
