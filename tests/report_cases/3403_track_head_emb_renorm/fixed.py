"""Sequence-style visual tracker: the box of the target in the search patch is
predicted as 4 quantised coordinate tokens, with the coordinate-token embedding
table shared between the decoder input and the output projection."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

BINS = 64
DIM = 48
SOS = BINS


class PatchEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, DIM, 3, stride=2, padding=1), nn.ReLU(),
        )

    def forward(self, img):
        feat = self.conv(img)                      # B, D, h, w
        return feat.flatten(2).transpose(1, 2)     # B, h*w, D


class CoordinateHead(nn.Module):
    def __init__(self, max_norm=1.0):
        super().__init__()
        self.word_embeddings = nn.Embedding(BINS + 1, DIM)
        self.pos = nn.Parameter(torch.randn(5, DIM) * 0.02)
        self.attn = nn.MultiheadAttention(DIM, 4, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(DIM, DIM), nn.GELU(), nn.Linear(DIM, DIM))
        self.max_norm = max_norm

    def renorm_vocab(self):
        with torch.no_grad():
            w = self.word_embeddings.weight
            scale = w.norm(dim=1, keepdim=True).clamp(min=self.max_norm) / self.max_norm
            w.div_(scale)

    def forward(self, memory, seq_in):
        emb_weight = self.word_embeddings.weight.clone()
        tok = self.word_embeddings(seq_in) + self.pos[: seq_in.size(1)]
        h, _ = self.attn(tok, memory, memory)
        h = h + self.mlp(h)
        logits = torch.matmul(h, emb_weight.t())[..., :BINS]
        self.renorm_vocab()
        return logits


class SeqTracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = PatchEncoder()
        self.head = CoordinateHead()

    def forward(self, template, search, seq_in):
        memory = torch.cat([self.encoder(template), self.encoder(search)], dim=1)
        return self.head(memory, seq_in)


def make_pair(batch=4):
    template = torch.randn(batch, 3, 32, 32)
    search = torch.randn(batch, 3, 64, 64)
    boxes = torch.rand(batch, 4)
    tokens = (boxes * (BINS - 1)).long()
    seq_in = torch.cat([torch.full((batch, 1), SOS), tokens[:, :3]], dim=1)
    return template, search, seq_in, tokens


def train(steps=15):
    model = SeqTracker()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    for step in range(steps):
        template, search, seq_in, target = make_pair()
        logits = model(template, search, seq_in)
        loss = F.cross_entropy(logits.reshape(-1, BINS), target.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(f"step {step}: token ce {loss.item():.3f}")


if __name__ == "__main__":
    train()
