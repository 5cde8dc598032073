"""Performer-style (FAVOR+) transformer encoder for sequence classification."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from attention import AttentionLayer, LinearAttention, TransformerEncoder, TransformerEncoderLayer
from feature_maps import Favor


class Classifier(nn.Module):
    def __init__(self, vocab, d_model, n_heads, d_query, d_ff, n_layers, n_classes):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        # one attention (and one random feature map) per encoder layer
        def make_attention():
            attention_module = LinearAttention(d_query, Favor.factory(n_dims=2 * d_query))
            return AttentionLayer(attention_module, d_model, n_heads, d_query, d_query)
        self.transformer = TransformerEncoder(
            [TransformerEncoderLayer(make_attention(), d_model, d_ff) for _ in range(n_layers)])
        self.head = nn.Linear(d_model, n_classes)

    def forward(self, tokens):
        h = self.transformer(self.embed(tokens))
        return self.head(h.mean(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vocab", type=int, default=100)
    parser.add_argument("--d_model", type=int, default=64)
    parser.add_argument("--n_heads", type=int, default=4)
    parser.add_argument("--d_query", type=int, default=16)
    parser.add_argument("--n_layers", type=int, default=3)
    parser.add_argument("--steps", type=int, default=5)
    args = parser.parse_args()
    torch.manual_seed(0)

    model = Classifier(args.vocab, args.d_model, args.n_heads, args.d_query, 128, args.n_layers, 2)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(args.steps):
        tokens = torch.randint(0, args.vocab, (8, 32))
        labels = (tokens[:, 0] > args.vocab // 2).long()
        loss = F.cross_entropy(model(tokens), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
