# fixed twin: the reconstruction itself is used.
import torch
import torch.nn as nn

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(8, 4), nn.ReLU())
decoder = nn.Linear(4, 8)
params = list(encoder.parameters()) + list(decoder.parameters())
optimizer = torch.optim.SGD(params, lr=0.05)
for it in range(3):
    batch = torch.randn(10, 8)
    recon = decoder(encoder(batch))
    loss = ((recon - batch) ** 2).sum(1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
