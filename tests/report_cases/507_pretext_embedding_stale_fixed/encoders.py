import torch
import torch.nn as nn


class HashTextEmbedder:
    """Cheap stand-in for a sentence encoder: hashes each string into a bucket
    and looks the bucket up in a random embedding table."""

    def __init__(self, out_channels, num_hash_bins=64):
        self.num_hash_bins = num_hash_bins
        self.embedding = nn.Embedding(num_hash_bins, out_channels)

    def __call__(self, sentences):
        idx = torch.tensor([sum(map(ord, s)) % self.num_hash_bins for s in sentences])
        # the embedder is not part of the trained model: hand out plain features
        return self.embedding(idx).detach()
