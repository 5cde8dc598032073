"""CLIP-style text encoder that turns class names into class embeddings.

Modelled after mmseg's CLIPTextEncoder: the class-name prompts are fixed,
so the resulting embeddings can be cached after the first call.
(The original wrapped `forward` in @torch.no_grad() and froze the weights;
here the encoder is meant to be fine-tuned.)
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CLIPTextEncoder(nn.Module):
    def __init__(self, class_names, vocab_size=200, embed_dims=32, num_layers=2,
                 output_dims=32, cat_bg=True, cache_feature=True):
        super().__init__()
        self.class_names = class_names
        self.cat_bg = cat_bg
        self.cache_feature = cache_feature
        self.cache = None
        self.token_embedding = nn.Embedding(vocab_size, embed_dims)
        self.positional_embedding = nn.Parameter(torch.randn(8, embed_dims) * 0.01)
        layer = nn.TransformerEncoderLayer(embed_dims, 4, 2 * embed_dims, dropout=0.0,
                                           batch_first=True)
        self.transformer = nn.TransformerEncoder(layer, num_layers)
        self.ln_final = nn.LayerNorm(embed_dims)
        self.text_projection = nn.Parameter(torch.randn(embed_dims, output_dims) * 0.05)
        if cat_bg:
            self.bg_embed = nn.Parameter(torch.randn(1, output_dims) * 0.05)
        # deterministic "tokenization" of the prompts "a photo of a {name}."
        g = torch.Generator().manual_seed(1234)
        self.register_buffer("tokens", torch.randint(1, vocab_size, (len(class_names), 8), generator=g))

    def encode_text(self, tokens):
        x = self.token_embedding(tokens) + self.positional_embedding
        x = self.ln_final(self.transformer(x))
        x = x[:, -1] @ self.text_projection
        return F.normalize(x, dim=-1)

    def forward(self):
        if self.cache_feature and self.cache is not None:
            return self.cache
        text_embeddings = self.encode_text(self.tokens)
        if self.cat_bg:
            text_embeddings = torch.cat([text_embeddings, F.normalize(self.bg_embed, dim=-1)], 0)
        if self.cache_feature:
            self.cache = text_embeddings
        return text_embeddings
