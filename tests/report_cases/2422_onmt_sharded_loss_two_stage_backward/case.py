"""Content-selection style encoder-decoder (data2text / OpenNMT-py layout)
trained with the memory-saving sharded loss."""
import argparse

import torch
import torch.nn as nn

from loss import NMTLossCompute


class Seq2Seq(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, dim):
        super().__init__()
        self.src_emb, self.tgt_emb = nn.Embedding(src_vocab, dim), nn.Embedding(tgt_vocab, dim)
        self.encoder = nn.GRU(dim, dim)
        self.decoder = nn.GRU(dim, dim)

    def forward(self, src, tgt):
        _, enc_state = self.encoder(self.src_emb(src))
        dec_out, _ = self.decoder(self.tgt_emb(tgt[:-1]), enc_state)
        return dec_out                                        # (tgt_len - 1, batch, dim)


class Trainer:
    def __init__(self, model, loss_compute, optim, shard_size, grad_clip):
        self.model, self.loss_compute, self.optim = model, loss_compute, optim
        self.shard_size, self.grad_clip = shard_size, grad_clip

    def train_batch(self, src, tgt):
        self.model.zero_grad()
        self.loss_compute.generator.zero_grad()
        outputs = self.model(src, tgt)
        normalization = tgt[1:].ne(0).sum().item()
        total, words = self.loss_compute.sharded_compute_loss(tgt, outputs, self.shard_size, normalization)
        params = list(self.model.parameters()) + list(self.loss_compute.generator.parameters())
        nn.utils.clip_grad_norm_(params, self.grad_clip)
        self.optim.step()
        return total / max(words, 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--src_vocab", type=int, default=60)
    parser.add_argument("--tgt_vocab", type=int, default=50)
    parser.add_argument("--dim", type=int, default=32)
    parser.add_argument("--shard_size", type=int, default=4)
    parser.add_argument("--steps", type=int, default=15)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = Seq2Seq(args.src_vocab, args.tgt_vocab, args.dim)
    generator = nn.Sequential(nn.Linear(args.dim, args.tgt_vocab), nn.LogSoftmax(dim=-1))
    loss_compute = NMTLossCompute(generator, padding_idx=0)
    optim = torch.optim.Adam(list(model.parameters()) + list(generator.parameters()), lr=1e-3)
    trainer = Trainer(model, loss_compute, optim, args.shard_size, grad_clip=5.0)
    for step in range(args.steps):
        src = torch.randint(1, args.src_vocab, (12, 8))
        tgt = torch.randint(1, args.tgt_vocab, (14, 8))
        tgt[-2:, :3] = 0                                     # some padding
        nll = trainer.train_batch(src, tgt)
        if step % 5 == 0:
            print(f"step {step} nll/word {nll:.3f}")


if __name__ == "__main__":
    main()
