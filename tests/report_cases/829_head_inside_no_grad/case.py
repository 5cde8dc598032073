"""Fine-tuning a classifier head on top of a frozen encoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 64), nn.LayerNorm(64))

    def forward(self, x):
        return self.net(x)


encoder = Encoder()
encoder.requires_grad_(False)
encoder.eval()
head = nn.Sequential(nn.Dropout(0.1), nn.Linear(64, 4))
optimizer = torch.optim.AdamW(head.parameters(), lr=1e-3)
x_all, y_all = torch.randn(64, 32), torch.randint(0, 4, (64,))

for epoch in range(2):
    head.train()
    for i in range(0, 64, 16):
        x, y = x_all[i:i + 16], y_all[i:i + 16]
        with torch.no_grad():
            feats = encoder(x)
            logits = head(feats)
        loss = F.cross_entropy(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, loss.item())
