"""Contrastive pre-training with an NT-Xent loss backed by a memory bank of
negatives (lightly's MemoryBankModule / NTXentLoss layout). The bank is
updated with the current batch inside the loss forward.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class MemoryBankModule(nn.Module):
    def __init__(self, size: int = 2 ** 12):
        super().__init__()
        self.size = size
        self.register_buffer("bank", torch.empty(0, dtype=torch.float))
        self.register_buffer("bank_ptr", torch.empty(0, dtype=torch.long))

    @torch.no_grad()
    def _init_memory_bank(self, dim: int):
        self.bank = F.normalize(torch.randn(dim, self.size), dim=0)
        self.bank_ptr = torch.LongTensor([0])

    @torch.no_grad()
    def _dequeue_and_enqueue(self, batch: torch.Tensor):
        batch_size = batch.shape[0]
        ptr = int(self.bank_ptr)
        if ptr + batch_size >= self.size:
            self.bank[:, ptr:] = batch[:self.size - ptr].T.detach()
            self.bank_ptr[0] = 0
        else:
            self.bank[:, ptr:ptr + batch_size] = batch.T.detach()
            self.bank_ptr[0] = ptr + batch_size

    def forward(self, output, labels=None, update=False):
        if self.size == 0:
            return output, None
        _, dim = output.shape
        if self.bank.nelement() == 0:
            self._init_memory_bank(dim)
        bank = self.bank.clone().detach()
        if update:
            self._dequeue_and_enqueue(output)
        return output, bank


class NTXentLoss(MemoryBankModule):
    def __init__(self, temperature=0.5, memory_bank_size=0):
        super().__init__(size=memory_bank_size)
        self.temperature = temperature
        self.cross_entropy = nn.CrossEntropyLoss(reduction="mean")

    def forward(self, out0, out1):
        batch_size, _ = out0.shape
        out0 = F.normalize(out0, dim=1)
        out1 = F.normalize(out1, dim=1)
        out1, negatives = super().forward(out1, update=out0.requires_grad)
        sim_pos = torch.einsum("nc,nc->n", out0, out1).unsqueeze(-1)
        sim_neg = torch.einsum("nc,ck->nk", out0, negatives)
        logits = torch.cat([sim_pos, sim_neg], dim=1) / self.temperature
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        return self.cross_entropy(logits, labels)


class SimCLR(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1),
                                      nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.projection_head = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, dim))

    def forward(self, x):
        return self.projection_head(self.backbone(x))


def augment(x):
    flip = torch.rand(x.shape[0], 1, 1, 1) < 0.5
    x = torch.where(flip, x.flip(-1), x)
    return x + 0.1 * torch.randn_like(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--memory_bank_size", type=int, default=256)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = SimCLR()
    criterion = NTXentLoss(temperature=0.1, memory_bank_size=args.memory_bank_size)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.06, momentum=0.9)
    images = torch.rand(96, 3, 32, 32)
    for epoch in range(args.epochs):
        total = 0.0
        for i in range(0, len(images), 32):
            x = images[i:i + 32]
            z0, z1 = model(augment(x)), model(augment(x))
            loss = criterion(z0, z1)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.detach()
        print(f"epoch {epoch}: loss {total.item() / 3:.4f}")


if __name__ == "__main__":
    main()
