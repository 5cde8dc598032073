"""Transformer seq2seq with two-pass scheduled sampling (Mihaylova & Martins,
2019) on a toy sequence-reversal task: a first decoder pass with gold inputs
produces predictions that are mixed into the inputs of a second pass."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, BOS, LEN, DIM = 20, 1, 8, 32


class Seq2SeqTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_emb = nn.Embedding(VOCAB, DIM)
        self.tgt_emb = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Parameter(torch.randn(LEN, DIM) * 0.02)
        enc_layer = nn.TransformerEncoderLayer(DIM, 4, 64, dropout=0.0, batch_first=True)
        dec_layer = nn.TransformerDecoderLayer(DIM, 4, 64, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(enc_layer, 1)
        self.decoder = nn.TransformerDecoder(dec_layer, 1)
        self.out = nn.Linear(DIM, VOCAB)
        self.register_buffer("causal", nn.Transformer.generate_square_subsequent_mask(LEN))

    def encode(self, src):
        return self.encoder(self.src_emb(src) + self.pos)

    def decode(self, memory, tgt_in):
        h = self.decoder(self.tgt_emb(tgt_in) + self.pos, memory, tgt_mask=self.causal)
        return self.out(h)


def make_batch(n=32):
    src = torch.randint(2, VOCAB, (n, LEN))
    tgt = src.flip(1)
    tgt_in = torch.cat([torch.full((n, 1), BOS), tgt[:, :-1]], dim=1)
    return src, tgt_in, tgt


def mix_inputs(gold_in, logits, prob):
    pred = logits.argmax(-1)
    shifted = torch.cat([gold_in[:, :1], pred[:, :-1]], dim=1)
    use_pred = torch.rand(gold_in.shape) < prob
    return torch.where(use_pred, shifted, gold_in)


def train(steps=20):
    model = Seq2SeqTransformer()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        src, tgt_in, tgt = make_batch()
        sample_prob = min(0.5, step / steps)
        opt.zero_grad()
        memory = model.encode(src)
        logits_gold = model.decode(memory, tgt_in)
        loss_gold = F.cross_entropy(logits_gold.reshape(-1, VOCAB), tgt.reshape(-1))
        mixed_in = mix_inputs(tgt_in, logits_gold.detach(), sample_prob)
        logits_mixed = model.decode(memory, mixed_in)
        loss_mixed = F.cross_entropy(logits_mixed.reshape(-1, VOCAB), tgt.reshape(-1))
        (0.5 * loss_gold + 0.5 * loss_mixed).backward()
        opt.step()
        if step % 5 == 0:
            print(f"step {step}: gold {loss_gold.item():.3f} mixed {loss_mixed.item():.3f}")


if __name__ == "__main__":
    train()
