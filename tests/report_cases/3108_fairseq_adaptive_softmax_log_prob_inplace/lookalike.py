"""Word-level language model with an adaptive-softmax output layer: trained with the usual
negative log-likelihood, while the full log-probabilities from get_log_prob are only used, under
no_grad, to report the perplexity of the batch."""
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
    for step, (src, tgt) in enumerate(batches()):
        hidden, _ = model.lstm(model.embed(src))
        head_logits = model.adaptive_softmax.head(hidden.reshape(-1, hidden.size(-1)))
        loss = F.cross_entropy(head_logits, tgt.reshape(-1).clamp(max=head_logits.size(1) - 1))
        with torch.no_grad():
            log_probs = model(src)
            ppl = torch.exp(F.nll_loss(log_probs.view(-1, VOCAB), tgt.reshape(-1)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.3f} ppl {ppl.item():.1f}")


if __name__ == "__main__":
    train()
