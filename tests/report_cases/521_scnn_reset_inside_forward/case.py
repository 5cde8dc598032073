import torch
import torch.nn.functional as F

from model import SCNN

torch.manual_seed(0)
net = SCNN()
optimizer = torch.optim.Adam(net.parameters(), lr=5e-3, betas=(0.9, 0.999))


def ce_rate_loss(spk_rec, targets):
    return F.cross_entropy(spk_rec.sum(0), targets)


for epoch in range(2):
    for it in range(3):
        data = torch.rand(6, 1, 8, 8)
        targets = torch.randint(0, 4, (6,))
        spk_rec, mem_rec = net(data)
        loss_val = ce_rate_loss(spk_rec, targets)
        optimizer.zero_grad()
        loss_val.backward()
        optimizer.step()
        acc = (spk_rec.sum(0).argmax(1) == targets).float().mean().item()
        print(f"epoch {epoch} iter {it} loss {loss_val.item():.3f} acc {acc:.2f}")
