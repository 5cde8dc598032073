"""BiDAF-style extractive QA head: context-to-query attention, then span start/end
distributions over the passage. Padding positions are masked with a util helper."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def masked_softmax(vector, mask, dim=-1):
    return F.softmax(vector.masked_fill(~mask, -1e32), dim=dim)


def replace_masked_values(tensor, mask, replace_with):
    """Replace the entries of `tensor` where `mask` is False."""
    return tensor.masked_fill(~mask, replace_with)


class BidafHead(nn.Module):
    def __init__(self, vocab=40, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.ctx_enc = nn.GRU(dim, dim, batch_first=True, bidirectional=True)
        self.q_enc = nn.GRU(dim, dim, batch_first=True, bidirectional=True)
        self.att_w = nn.Linear(2 * dim, 2 * dim, bias=False)
        self.start = nn.Linear(4 * dim, 1)
        self.end = nn.Linear(4 * dim, 1)

    def forward(self, passage, question):
        p_mask, q_mask = passage != 0, question != 0
        p, _ = self.ctx_enc(self.embed(passage))
        q, _ = self.q_enc(self.embed(question))
        sim = self.att_w(p) @ q.transpose(1, 2)                           # (B, P, Q)
        c2q = masked_softmax(sim, q_mask[:, None, :]) @ q                 # (B, P, 2d)
        merged = torch.cat([p, c2q], dim=-1)
        span_start_probs = masked_softmax(self.start(merged).squeeze(-1), p_mask)
        span_end_probs = masked_softmax(self.end(merged).squeeze(-1), p_mask)
        # zero out padding so downstream decoding never picks it
        span_start_probs = replace_masked_values(span_start_probs, p_mask, 0.0)
        span_end_probs = replace_masked_values(span_end_probs, p_mask, 0.0)
        return span_start_probs, span_end_probs


def nll(probs, index):
    return -torch.log(probs.gather(1, index[:, None]).clamp(min=1e-12)).mean()


model = BidafHead()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
passage = torch.randint(1, 40, (4, 10))
passage[:, 8:] = 0
question = torch.randint(1, 40, (4, 5))
start_idx, end_idx = torch.tensor([1, 2, 3, 0]), torch.tensor([4, 5, 6, 2])

for step in range(3):
    start_probs, end_probs = model(passage, question)
    loss = nll(start_probs, start_idx) + nll(end_probs, end_idx)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print("step", step, "loss", round(loss.item(), 4))
