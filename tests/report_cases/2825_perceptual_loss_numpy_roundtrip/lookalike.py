import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


class CDPAM(nn.Module):
    """Learned perceptual audio distance (frozen feature net), numpy API."""
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv1d(1, 8, 15, stride=4), nn.LeakyReLU(0.2),
                                      nn.Conv1d(8, 16, 15, stride=4), nn.LeakyReLU(0.2))
        for p in self.parameters():
            p.requires_grad_(False)

    def load_audio(self, wav):
        wav = np.asarray(wav, dtype=np.float32)
        return torch.from_numpy(wav).unsqueeze(1)

    def forward(self, wav_ref, wav_out):
        ref, out = self.load_audio(wav_ref), self.load_audio(wav_out)
        fr, fo = self.features(ref), self.features(out)
        return ((fr - fo) ** 2).mean(dim=(1, 2))


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 16, 9, padding=4), nn.ReLU(), nn.Conv1d(16, 1, 9, padding=4))

    def forward(self, x):
        return x - self.net(x.unsqueeze(1)).squeeze(1)


model = Denoiser()
loss_fn = CDPAM()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
t = torch.linspace(0, 1, 512)
for step in range(4):
    clean = torch.sin(2 * np.pi * (100 + 50 * torch.rand(8, 1)) * t)
    x = clean + 0.3 * torch.randn(8, 512)
    prediction = model(x)
    loss = ((prediction - clean) ** 2).mean()
    # numpy API only for the logged perceptual metric
    cdpam = loss_fn.forward(clean.numpy(), prediction.detach().cpu().numpy()).mean().item()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 5), 'cdpam', round(cdpam, 5))
