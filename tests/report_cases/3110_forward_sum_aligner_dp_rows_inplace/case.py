"""Unsupervised text-to-mel alignment for a TTS duration model: a forward-sum (monotonic CTC-like)
loss over the soft alignment log-probabilities, computed with a dynamic-programming table."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
NEG_INF = -1e4


def logadd(x0, x1):
    m = torch.max(x0, x1)
    return m + torch.log(torch.exp(x0 - m) + torch.exp(x1 - m))


def forward_sum_loss(log_p):
    """log_p: (T_mel, N_text) log-probabilities of aligning frame t to token n."""
    T, N = log_p.shape
    log_alpha = log_p.new_full((T, N), NEG_INF)
    log_alpha[0, 0] = log_p[0, 0]
    for t in range(1, T):
        prev = log_alpha[t - 1]
        shifted = torch.cat([prev.new_full((1,), NEG_INF), prev[:-1]])
        log_alpha[t] = logadd(prev, shifted) + log_p[t]
    return -log_alpha[T - 1, N - 1] / T


class Aligner(nn.Module):
    def __init__(self, n_symbols=20, n_mels=8, dim=16):
        super().__init__()
        self.text_embed = nn.Embedding(n_symbols, dim)
        self.text_proj = nn.Conv1d(dim, dim, 3, padding=1)
        self.mel_proj = nn.Sequential(nn.Conv1d(n_mels, dim, 3, padding=1), nn.ReLU(), nn.Conv1d(dim, dim, 1))

    def forward(self, text, mel):
        keys = self.text_proj(self.text_embed(text).T.unsqueeze(0)).squeeze(0).T     # (N, dim)
        queries = self.mel_proj(mel.T.unsqueeze(0)).squeeze(0).T                     # (T, dim)
        dist = torch.cdist(queries, keys) ** 2
        return F.log_softmax(-dist, dim=1)


def main(steps=4):
    aligner = Aligner()
    optimizer = torch.optim.Adam(aligner.parameters(), lr=1e-3)
    for step in range(steps):
        text = torch.randint(0, 20, (6,))
        mel = torch.randn(15, 8)
        loss = forward_sum_loss(aligner(text, mel))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} forward-sum loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
