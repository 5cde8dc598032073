import random

import torch

from encoders import HashTextEmbedder

WORDS = ["red", "blue", "green", "small", "large", "cheap", "fast", "slow"]


def make_table(n_rows, seed=0):
    rng = random.Random(seed)
    texts = [" ".join(rng.choice(WORDS) for _ in range(3)) for _ in range(n_rows)]
    numeric = torch.randn(n_rows, 4)
    target = torch.randn(n_rows, 1)
    return texts, numeric, target


def materialize(texts, numeric, emb_dim=8):
    """Pre-encode the text column once so training only sees tensors."""
    embedder = HashTextEmbedder(emb_dim)
    text_feat = embedder(texts)
    return torch.cat([text_feat, numeric], dim=1)
