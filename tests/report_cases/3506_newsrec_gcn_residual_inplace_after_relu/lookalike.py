"""Neural news recommendation: news titles are encoded with word embeddings +
attention pooling, the user's clicked news form a small graph refined by a
residual GCN, and candidates are ranked against the user vector
(1 clicked candidate vs K sampled negatives)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, TITLE_LEN, HIST, NEG, DIM = 200, 8, 6, 3, 32


class Attention(nn.Module):
    def __init__(self, dim, att_dim=16):
        super().__init__()
        self.affine1 = nn.Linear(dim, att_dim)
        self.affine2 = nn.Linear(att_dim, 1, bias=False)

    def forward(self, feature):                       # [B, L, D] -> [B, D]
        alpha = F.softmax(self.affine2(torch.tanh(self.affine1(feature))).squeeze(2), dim=1)
        return torch.bmm(alpha.unsqueeze(1), feature).squeeze(1)


class GCNLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.W = nn.Linear(dim, dim)

    def forward(self, feature, graph):                # [B, N, D], [B, N, N]
        out = self.W(torch.bmm(graph, feature))
        out += feature                                # pre-activation residual
        return F.relu(out)


class NewsRecommender(nn.Module):
    def __init__(self):
        super().__init__()
        self.word_emb = nn.Embedding(VOCAB, DIM)
        self.title_att = Attention(DIM)
        self.gcn = nn.ModuleList([GCNLayer(DIM), GCNLayer(DIM)])
        self.user_att = Attention(DIM)

    def encode_news(self, titles):                    # [B, N, L] -> [B, N, D]
        b, n, l = titles.shape
        words = self.word_emb(titles.view(b * n, l))
        return self.title_att(words).view(b, n, DIM)

    def forward(self, history, graph, candidates):
        h = self.encode_news(history)
        for layer in self.gcn:
            h = layer(h, graph)
        user = self.user_att(h)                                   # [B, D]
        cand = self.encode_news(candidates)                       # [B, 1+NEG, D]
        return torch.bmm(cand, user.unsqueeze(2)).squeeze(2)      # click scores


def make_batch(b=8):
    history = torch.randint(0, VOCAB, (b, HIST, TITLE_LEN))
    candidates = torch.randint(0, VOCAB, (b, 1 + NEG, TITLE_LEN))
    adj = (torch.rand(b, HIST, HIST) > 0.6).float() + torch.eye(HIST)
    graph = adj / adj.sum(2, keepdim=True)                         # row-normalised co-click graph
    return history, graph, candidates


def main():
    model = NewsRecommender()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(5):
        history, graph, candidates = make_batch()
        scores = model(history, graph, candidates)
        loss = F.cross_entropy(scores, torch.zeros(scores.size(0), dtype=torch.long))  # clicked one is index 0
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
