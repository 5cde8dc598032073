"""Fine-tune an ELMo-style embedder (requires_grad=True) inside a sentence classifier,
using a cached vocabulary for speed."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CharCNNTokenEmbedder(nn.Module):
    def __init__(self, n_chars=40, char_dim=8, out_dim=24, max_chars=6):
        super().__init__()
        self.char_embedding = nn.Embedding(n_chars, char_dim, padding_idx=0)
        self.conv = nn.Conv1d(char_dim, out_dim, kernel_size=3, padding=1)
        self.highway = nn.Linear(out_dim, 2 * out_dim)

    def forward(self, char_ids):  # (..., max_chars)
        shape = char_ids.shape[:-1]
        x = self.char_embedding(char_ids.reshape(-1, char_ids.size(-1))).transpose(1, 2)
        h = torch.relu(self.conv(x)).max(dim=-1).values
        nonlinear, gate = self.highway(h).chunk(2, dim=-1)
        gate = torch.sigmoid(gate)
        h = gate * h + (1 - gate) * torch.relu(nonlinear)
        return h.reshape(*shape, -1)


class ElmoBiLm(nn.Module):
    def __init__(self, requires_grad=False, vocab_to_cache=None, freeze_cached_embedder=False):
        super().__init__()
        self._token_embedder = CharCNNTokenEmbedder()
        self._requires_grad = requires_grad
        if vocab_to_cache is not None and freeze_cached_embedder:
            # the cached vectors replace the CNN, so it must not be part of the graph
            requires_grad_cnn = False
        else:
            requires_grad_cnn = requires_grad
        for p in self._token_embedder.parameters():
            p.requires_grad_(requires_grad_cnn)
        self._word_embedding = None
        if vocab_to_cache is not None:
            self.create_cached_cnn_embeddings(vocab_to_cache)
        self._lstm = nn.LSTM(24, 16, batch_first=True, bidirectional=True)
        for p in self._lstm.parameters():
            p.requires_grad_(requires_grad)

    def create_cached_cnn_embeddings(self, vocab_char_ids):
        self._word_embedding = self._token_embedder(vocab_char_ids)  # (vocab, dim)

    def forward(self, char_ids, word_ids=None):
        if self._word_embedding is not None and word_ids is not None:
            token_embedding = F.embedding(word_ids, self._word_embedding)
        else:
            token_embedding = self._token_embedder(char_ids)
        contextual, _ = self._lstm(token_embedding)
        return [torch.cat([token_embedding, token_embedding], -1)[..., :32], contextual]


class Elmo(nn.Module):
    def __init__(self, requires_grad=False, vocab_to_cache=None, freeze_cached_embedder=False):
        super().__init__()
        self._elmo_lstm = ElmoBiLm(requires_grad, vocab_to_cache, freeze_cached_embedder)
        self.scalar_mix = nn.Parameter(torch.zeros(2))
        self.gamma = nn.Parameter(torch.ones(1))

    def forward(self, char_ids, word_ids=None):
        layers = self._elmo_lstm(char_ids, word_ids)
        weights = torch.softmax(self.scalar_mix, 0)
        return self.gamma * sum(w * layer for w, layer in zip(weights, layers))


torch.manual_seed(0)
VOCAB, MAX_CHARS = 30, 6
VOCAB_CHAR_IDS = torch.randint(1, 40, (VOCAB, MAX_CHARS))  # character spelling of each word


class SentenceClassifier(nn.Module):
    def __init__(self, elmo, n_classes=3):
        super().__init__()
        self.elmo = elmo
        self.out = nn.Linear(32, n_classes)

    def forward(self, word_ids):
        reps = self.elmo(VOCAB_CHAR_IDS[word_ids], word_ids)
        return self.out(reps.mean(1))


def batches(n, batch=8, seq=7):
    for _ in range(n):
        words = torch.randint(0, VOCAB, (batch, seq))
        yield words, words[:, 0] % 3


def main():
    elmo = Elmo(requires_grad=True, vocab_to_cache=VOCAB_CHAR_IDS, freeze_cached_embedder=True)
    model = SentenceClassifier(elmo)
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-3)
    for step, (words, labels) in enumerate(batches(5)):
        loss = F.cross_entropy(model(words), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
