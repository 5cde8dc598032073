"""Word-level language model with an adaptive-softmax output layer, trained on the full
log-probabilities returned by get_log_prob (e.g. to mix them with a unigram prior)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from adaptive_softmax import AdaptiveSoftmax

torch.manual_seed(0)
VOCAB = 60


class LSTMLanguageModel(nn.Module):
    def __init__(self, vocab=VOCAB, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.adaptive_softmax = AdaptiveSoftmax(vocab, dim, cutoff=[20, 40])

    def forward(self, tokens):
        hidden, _ = self.lstm(self.embed(tokens))
        return self.adaptive_softmax.get_log_prob(hidden)


def batches(n=4, bsz=4, length=10):
    for _ in range(n):
        tokens = torch.randint(0, VOCAB, (bsz, length + 1))
        yield tokens[:, :-1], tokens[:, 1:]


def train():
    model = LSTMLanguageModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    unigram = torch.log_softmax(torch.randn(VOCAB), 0)
    for step, (src, tgt) in enumerate(batches()):
        log_probs = model(src)
        mixed = torch.logsumexp(torch.stack([log_probs + 0.9, unigram.expand_as(log_probs) + 0.1]), 0)
        loss = F.nll_loss(mixed.view(-1, VOCAB), tgt.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} nll {loss.item():.3f}")


if __name__ == "__main__":
    train()
