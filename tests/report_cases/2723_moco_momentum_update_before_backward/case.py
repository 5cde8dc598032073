import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GraphContrast(nn.Module):
    def __init__(self, dim=16, K=64, m=0.999, T=0.07):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data = param_k.data * self.m + param_q.data * (1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        ptr = int(self.queue_ptr)
        self.queue[:, ptr:ptr + keys.shape[0]] = keys.T
        self.queue_ptr[0] = (ptr + keys.shape[0]) % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", [q, self.queue.clone().detach()])
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        self._dequeue_and_enqueue(k)
        return logits, labels


model = GraphContrast()
optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-3)
for step in range(6):
    x = torch.randn(16, 12)
    logits, labels = model(x + 0.05 * torch.randn_like(x), x + 0.05 * torch.randn_like(x))
    loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
