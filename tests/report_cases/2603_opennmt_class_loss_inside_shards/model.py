import torch
import torch.nn as nn


class RNNEncoder(nn.Module):
    def __init__(self, vocab, emb=16, hidden=32):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden)

    def forward(self, src):
        memory_bank, enc_state = self.rnn(self.embeddings(src))
        return enc_state, memory_bank


class RNNDecoder(nn.Module):
    def __init__(self, vocab, emb=16, hidden=32):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden)

    def forward(self, tgt, enc_state):
        dec_out, _ = self.rnn(self.embeddings(tgt), enc_state)
        return dec_out


class NMTModelWithClassifier(nn.Module):
    """OpenNMT NMTModel plus a sentence-level classification head placed after the encoder."""

    def __init__(self, src_vocab, tgt_vocab, n_classes=3, hidden=32):
        super().__init__()
        self.encoder = RNNEncoder(src_vocab, hidden=hidden)
        self.decoder = RNNDecoder(tgt_vocab, hidden=hidden)
        self.generator = nn.Sequential(nn.Linear(hidden, tgt_vocab), nn.LogSoftmax(dim=-1))
        self.classifier = nn.Linear(hidden, n_classes)

    def forward(self, src, tgt):
        enc_state, memory_bank = self.encoder(src)
        dec_out = self.decoder(tgt[:-1], enc_state)
        stargets_logits = self.classifier(memory_bank.mean(0))
        return dec_out, stargets_logits
