"""Joint re-id / generation training (DG-Net style): an appearance encoder feeds both the
identity classifier and the image decoder; the backbone has its own optimizer and LR."""
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F


class ft_netAB(nn.Module):
    def __init__(self, num_ids, feat_dim=32):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, feat_dim, 3, stride=2, padding=1), nn.BatchNorm2d(feat_dim), nn.ReLU(),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(feat_dim, num_ids)

    def forward(self, x):
        f = self.pool(self.backbone(x)).flatten(1)
        f = f.detach()
        return f, self.classifier(f)


class Decoder(nn.Module):
    def __init__(self, feat_dim=32, size=8):
        super().__init__()
        self.size = size
        self.fc = nn.Linear(feat_dim + 1, 3 * size * size)

    def forward(self, f, structure):
        code = torch.cat([f, structure.mean(dim=(1, 2, 3))[:, None]], dim=1)
        return torch.tanh(self.fc(code)).view(-1, 3, self.size, self.size)


class DGNetTrainer:
    def __init__(self, num_ids=5, lr_id=0.002, lr_g=0.01):
        self.id_a = ft_netAB(num_ids)
        self.gen = Decoder()
        self.id_opt = torch.optim.SGD(self.id_a.backbone.parameters(), lr=lr_id, momentum=0.9)
        self.gen_opt = torch.optim.SGD(
            itertools.chain(self.id_a.classifier.parameters(), self.gen.parameters()),
            lr=lr_g, momentum=0.9)

    def gen_update(self, x_a, x_b, l_a):
        self.id_opt.zero_grad()
        self.gen_opt.zero_grad()
        f_a, p_a = self.id_a(x_a)
        x_ba = self.gen(f_a, x_b)
        loss_id = F.cross_entropy(p_a, l_a)
        loss_recon = F.l1_loss(self.gen(f_a, x_a), x_a)
        loss_cross = F.l1_loss(x_ba.mean(dim=(2, 3)), x_a.mean(dim=(2, 3)))
        loss_total = loss_id + 5.0 * loss_recon + loss_cross
        loss_total.backward()
        self.gen_opt.step()
        self.id_opt.step()
        return {"id": loss_id.item(), "recon": loss_recon.item(), "total": loss_total.item()}


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = DGNetTrainer()
    for it in range(6):
        x_a, x_b = torch.randn(4, 3, 8, 8), torch.randn(4, 3, 8, 8)
        l_a = torch.randint(0, 5, (4,))
        print(it, trainer.gen_update(x_a, x_b, l_a))
