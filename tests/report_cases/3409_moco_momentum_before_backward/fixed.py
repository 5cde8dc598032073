"""MoCo-style contrastive pre-training of a small MLP encoder on augmented
feature vectors, with a momentum key encoder and a queue of negatives."""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, in_dim=32, dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, dim))

    def forward(self, x):
        return self.net(x)


class MoCo(nn.Module):
    def __init__(self, dim=16, K=256, m=0.99, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = Encoder(dim=dim)
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad_(False)
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for p_q, p_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            p_k.mul_(self.m).add_(p_q.detach(), alpha=1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        b = keys.size(0)
        ptr = int(self.queue_ptr)
        self.queue[:, ptr : ptr + b] = keys.T
        self.queue_ptr[0] = (ptr + b) % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = (q * k).sum(dim=1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.size(0), dtype=torch.long)
        self._dequeue_and_enqueue(k)
        return logits, labels


def augment(x):
    return x + 0.1 * torch.randn_like(x) * (torch.rand_like(x) > 0.2)


def main():
    data = torch.randn(1024, 32)
    model = MoCo()
    optimizer = torch.optim.SGD(model.encoder_q.parameters(), lr=0.05, momentum=0.9)
    for it in range(16):
        x = data[torch.randint(0, len(data), (64,))]
        logits, labels = model(augment(x), augment(x))
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if it % 4 == 0:
            print(f"iter {it}: infoNCE {loss.item():.3f}")


if __name__ == "__main__":
    main()
