"""Shared encoder with a classifier head and a reconstruction decoder, each head with its own optimizer."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 8))

    def forward(self, x):
        return self.body(x)


encoder = Encoder()
classifier = nn.Linear(8, 3)
decoder = nn.Sequential(nn.Linear(8, 24), nn.ReLU(), nn.Linear(24, 12))
opt_main = torch.optim.Adam(list(encoder.parameters()) + list(classifier.parameters()), lr=1e-3)
opt_dec = torch.optim.Adam(decoder.parameters(), lr=1e-3)

x_all, y_all = torch.randn(96, 12), torch.randint(0, 3, (96,))
log = {"cls": [], "rec": []}
for epoch in range(3):
    for i in range(0, 96, 24):
        x, y = x_all[i:i + 24], y_all[i:i + 24]
        z = encoder(x)
        loss_cls = F.cross_entropy(classifier(z), y)
        loss_rec = 0.1 * F.mse_loss(decoder(z), x)

        opt_main.zero_grad()
        opt_dec.zero_grad()
        loss_cls.backward(retain_graph=True)
        loss_rec.backward()
        opt_main.step()
        opt_dec.step()

        log["cls"].append(loss_cls.detach())
        log["rec"].append(loss_rec.detach())
    print(epoch, torch.stack(log["cls"]).mean().item(), torch.stack(log["rec"]).mean().item())
