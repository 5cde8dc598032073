import torch
import torch.nn as nn


class TinyEncoder(nn.Module):
    def __init__(self, vocab_size, hidden, layers, heads, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, hidden)
        self.pos = nn.Embedding(max_len, hidden)
        layer = nn.TransformerEncoderLayer(hidden, heads, 2 * hidden, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)

    def forward(self, input_ids, attention_mask):
        pos = torch.arange(input_ids.size(1)).unsqueeze(0)
        h = self.tok(input_ids) + self.pos(pos)
        return self.encoder(h, src_key_padding_mask=~attention_mask)


class Generator(nn.Module):
    def __init__(self, vocab_size, hidden=16):
        super().__init__()
        self.body = TinyEncoder(vocab_size, hidden, layers=1, heads=2)
        self.lm_head = nn.Linear(hidden, vocab_size)

    def forward(self, input_ids, attention_mask):
        return self.lm_head(self.body(input_ids, attention_mask))


class Discriminator(nn.Module):
    def __init__(self, vocab_size, hidden=32):
        super().__init__()
        self.body = TinyEncoder(vocab_size, hidden, layers=2, heads=4)
        self.head = nn.Sequential(nn.Linear(hidden, hidden), nn.GELU(), nn.Linear(hidden, 1))

    def forward(self, input_ids, attention_mask):
        return self.head(self.body(input_ids, attention_mask)).squeeze(-1)
