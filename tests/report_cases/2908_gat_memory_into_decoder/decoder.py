import torch
import torch.nn as nn


class GraphAwareDecoderLayer(nn.Module):
    """Transformer decoder layer with an extra cross-attention block over graph node states
    (placed after the encoder-decoder cross-attention, before the FFN)."""

    def __init__(self, d_model=16, nhead=2):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, nhead, batch_first=True)
        self.enc_attn = nn.MultiheadAttention(d_model, nhead, batch_first=True)
        self.graph_attn = nn.MultiheadAttention(d_model, nhead, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(d_model, 32), nn.ReLU(), nn.Linear(32, d_model))
        self.norms = nn.ModuleList(nn.LayerNorm(d_model) for _ in range(4))

    def forward(self, x, enc_out, graph_states, causal_mask):
        x = self.norms[0](x + self.self_attn(x, x, x, attn_mask=causal_mask)[0])
        x = self.norms[1](x + self.enc_attn(x, enc_out, enc_out)[0])
        x = self.norms[2](x + self.graph_attn(x, graph_states, graph_states)[0])
        return self.norms[3](x + self.ffn(x))


class Seq2SeqWithGraph(nn.Module):
    def __init__(self, vocab=20, d_model=16, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d_model, 2, 32, dropout=0.0, batch_first=True), 1)
        self.layers = nn.ModuleList(GraphAwareDecoderLayer(d_model) for _ in range(n_layers))
        self.lm_head = nn.Linear(d_model, vocab)

    def forward(self, src, tgt_in, graph_states):
        enc_out = self.encoder(self.embed(src))
        L = tgt_in.shape[1]
        causal = torch.triu(torch.ones(L, L, dtype=torch.bool), 1)
        x = self.embed(tgt_in)
        g = graph_states.unsqueeze(0).expand(src.shape[0], -1, -1)
        for layer in self.layers:
            x = layer(x, enc_out, g, causal)
        return self.lm_head(x)
