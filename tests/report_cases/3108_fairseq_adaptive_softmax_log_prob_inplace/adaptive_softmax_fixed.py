import torch
import torch.nn as nn


class AdaptiveSoftmax(nn.Module):
    """Adaptive softmax (Grave et al.): a head over frequent words + cluster tokens, and tail
    clusters with smaller projections for rare words."""

    def __init__(self, vocab_size, input_dim, cutoff, factor=2):
        super().__init__()
        self.vocab_size = vocab_size
        self.cutoff = cutoff + [vocab_size]
        output_dim = cutoff[0] + len(self.cutoff) - 1
        self.head = nn.Linear(input_dim, output_dim, bias=False)
        self.tail = nn.ModuleList()
        for i in range(len(self.cutoff) - 1):
            dim = max(1, input_dim // (factor ** (i + 1)))
            self.tail.append(nn.Sequential(nn.Linear(input_dim, dim, bias=False),
                                           nn.Linear(dim, self.cutoff[i + 1] - self.cutoff[i], bias=False)))
        self.lsm = nn.LogSoftmax(dim=1)

    def get_log_prob(self, input):
        """Full log-probabilities over the vocabulary, shape (bsz * length, vocab)."""
        bsz, length, dim = input.size()
        input = input.contiguous().view(-1, dim)
        head_y = self.head(input)
        log_probs = head_y.new_zeros(input.size(0), self.vocab_size)
        head_sz = self.cutoff[0] + len(self.tail)
        log_probs[:, :head_sz] = self.lsm(head_y)
        tail_priors = log_probs[:, self.cutoff[0]: head_sz].clone()
        for i in range(len(self.tail)):
            start = self.cutoff[i]
            end = self.cutoff[i + 1]
            tail_out = log_probs[:, start:end]
            tail_out.copy_(self.tail[i](input))
            log_probs[:, start:end] = self.lsm(tail_out) + tail_priors[:, i, None]
        return log_probs.view(bsz, length, -1)
