import torch
import torch.nn as nn
import torch.nn.functional as F

encoder = nn.Linear(6, 4)
opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)
bank = torch.zeros(0, 4)
for step in range(3):
    feats = F.normalize(encoder(torch.randn(8, 6)), dim=1)
    logits = feats @ torch.cat([bank, feats]).t()
    loss = logits.logsumexp(1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    bank = torch.cat([bank, feats])[-32:]
