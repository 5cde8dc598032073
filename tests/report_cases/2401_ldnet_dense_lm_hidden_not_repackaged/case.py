"""LD-Net style densely connected LSTM language model trained with truncated BPTT.

Each BasicUnit keeps its LSTM state on the module so that consecutive
bptt chunks of the same corpus continue where the previous chunk stopped.
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicUnit(nn.Module):
    def __init__(self, ninp, nhid, droprate):
        super().__init__()
        self.layer = nn.LSTM(ninp, nhid, 1)
        self.droprate = droprate
        self.hidden_state = None

    def init_hidden(self):
        self.hidden_state = None

    def forward(self, x):
        if self.droprate > 0:
            new_x = F.dropout(x, p=self.droprate, training=self.training)
        else:
            new_x = x
        out, new_hidden = self.layer(new_x, self.hidden_state)
        self.hidden_state = new_hidden
        return torch.cat([x, out], 2)


class DenseRNN(nn.Module):
    def __init__(self, layer_num, emb_dim, hid_dim, droprate):
        super().__init__()
        self.layers = nn.ModuleList(
            [BasicUnit(emb_dim + i * hid_dim, hid_dim, droprate) for i in range(layer_num)])
        self.output_dim = emb_dim + layer_num * hid_dim

    def init_hidden(self):
        for unit in self.layers:
            unit.init_hidden()

    def forward(self, x):
        for unit in self.layers:
            x = unit(x)
        return x


class LM(nn.Module):
    def __init__(self, vocab_size, emb_dim, hid_dim, layer_num, droprate):
        super().__init__()
        self.word_embed = nn.Embedding(vocab_size, emb_dim)
        self.rnn = DenseRNN(layer_num, emb_dim, hid_dim, droprate)
        self.decode = nn.Linear(self.rnn.output_dim, vocab_size)

    def init_hidden(self):
        self.rnn.init_hidden()

    def forward(self, w_in):
        emb = self.word_embed(w_in)
        out = self.rnn(emb)
        return self.decode(out)


def batchify(corpus, bsz):
    nbatch = corpus.size(0) // bsz
    return corpus[: nbatch * bsz].view(bsz, -1).t().contiguous()


def train_epoch(model, data, optimizer, args):
    model.train()
    model.init_hidden()
    total_loss, n_chunks = 0.0, 0
    for i in range(0, data.size(0) - 1, args.bptt):
        seq_len = min(args.bptt, data.size(0) - 1 - i)
        w_in, w_tgt = data[i:i + seq_len], data[i + 1:i + 1 + seq_len]
        optimizer.zero_grad()
        scores = model(w_in)
        loss = F.cross_entropy(scores.view(-1, scores.size(-1)), w_tgt.reshape(-1))
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        optimizer.step()
        total_loss += loss.item()
        n_chunks += 1
    return total_loss / max(n_chunks, 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vocab", type=int, default=200)
    parser.add_argument("--emb_dim", type=int, default=32)
    parser.add_argument("--hid_dim", type=int, default=32)
    parser.add_argument("--layer_num", type=int, default=3)
    parser.add_argument("--droprate", type=float, default=0.2)
    parser.add_argument("--bptt", type=int, default=20)
    parser.add_argument("--batch_size", type=int, default=8)
    parser.add_argument("--clip", type=float, default=5.0)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()

    torch.manual_seed(0)
    corpus = torch.randint(0, args.vocab, (800,))
    data = batchify(corpus, args.batch_size)
    model = LM(args.vocab, args.emb_dim, args.hid_dim, args.layer_num, args.droprate)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        loss = train_epoch(model, data, optimizer, args)
        print(f"epoch {epoch} loss {loss:.3f} ppl {math.exp(loss):.1f}")


if __name__ == "__main__":
    main()
