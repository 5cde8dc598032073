import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_DIAG, N_MED, DIM = 12, 8, 16


class VisitMemoryNet(nn.Module):
    """Medication recommendation: a memory of past visits is read by attention
    and written after each visit."""
    def __init__(self):
        super().__init__()
        self.diag_emb = nn.EmbeddingBag(N_DIAG, DIM, mode="sum")
        self.query = nn.Linear(DIM, DIM)
        self.write_proj = nn.Linear(DIM, DIM)
        self.out = nn.Linear(2 * DIM, N_MED)

    def forward(self, visits):
        B, n_visits = 1, len(visits)
        memory = torch.zeros(B, n_visits, DIM)
        logits = []
        # fill the memory with every visit first (in-place writes before any read)
        qs = [self.query(self.diag_emb(d.unsqueeze(0))) for d in visits]
        for v, q in enumerate(qs):
            memory[:, v, :] = torch.tanh(self.write_proj(q))
        for v, q in enumerate(qs):
            if v > 0:
                scores = torch.bmm(q.unsqueeze(1), memory[:, :v].transpose(1, 2))  # (1, 1, v)
                attn = F.softmax(scores, dim=-1)
                read = torch.bmm(attn, memory[:, :v]).squeeze(1)
            else:
                read = torch.zeros_like(q)
            logits.append(self.out(torch.cat([q, read], dim=1)))
        return torch.cat(logits, dim=0)


def patient_stream(n=6):
    for _ in range(n):
        visits = [torch.randint(0, N_DIAG, (3,)) for _ in range(3)]
        meds = (torch.rand(3, N_MED) > 0.6).float()
        yield visits, meds


model = VisitMemoryNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    total = 0.0
    for visits, meds in patient_stream():
        loss = F.binary_cross_entropy_with_logits(model(visits), meds)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(epoch, round(total, 4))
