# fixed twin: the code keeps its graph; only the logged copy is detached.
# (code.detach() for the running statistics)
import torch
import torch.nn as nn

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 6), nn.ReLU(), nn.Linear(6, 3))

    def forward(self, x):
        return self.net(x)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 12))

    def forward(self, z):
        return self.net(z)


enc, dec = Encoder(), Decoder()
opt_enc = torch.optim.Adam(enc.parameters(), lr=1e-3)
opt_dec = torch.optim.Adam(dec.parameters(), lr=1e-3)
for epoch in range(3):
    x = torch.randn(8, 12)
    code = enc(x)
    code_mean = code.detach().mean(0)
    recon = dec(code)
    loss = ((recon - x) ** 2).mean()
    opt_enc.zero_grad()
    opt_dec.zero_grad()
    loss.backward()
    opt_enc.step()
    opt_dec.step()
