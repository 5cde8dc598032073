"""Harmonic-gated speech enhancement (HGCN-like): the network predicts
per-frame region classes (harmonic band / voiced) and a spectral mask.  The
gate is built from argmax of the region logits inside torch.no_grad(); the
region logits are returned and trained with their own focal loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

FREQ, FRAMES, N_REGION = 17, 10, 4


class HGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv1d(FREQ, 32, 3, padding=1), nn.PReLU(), nn.Conv1d(32, 32, 3, padding=1), nn.PReLU())
        self.region_a = nn.Conv1d(32, N_REGION, 1)   # which harmonic band is active
        self.region_b = nn.Conv1d(32, 2, 1)          # voiced / unvoiced
        self.mask = nn.Sequential(nn.Conv1d(32, FREQ, 1), nn.Sigmoid())
        band = torch.zeros(N_REGION, FREQ)
        for r in range(N_REGION):
            band[r, r * FREQ // N_REGION:] = 1.0
        self.register_buffer("band_table", band)

    def forward(self, spec):
        h = self.enc(spec)
        region_a, region_b = self.region_a(h), self.region_b(h)
        mask = self.mask(h)
        with torch.no_grad():
            idx_a = torch.argmax(region_a, dim=1)                         # [B, T]
            harmonic_loc = self.band_table[idx_a].transpose(1, 2)         # [B, F, T]
            voiced = torch.argmax(region_b, dim=1).to(torch.float).unsqueeze(1)
            gate = 0.5 + 0.5 * harmonic_loc * voiced
        enhanced = spec * mask * gate
        return enhanced, region_a, region_b


def focal_loss(logits, target, gamma=2.0):
    logp = F.log_softmax(logits, dim=1)
    logp_t = logp.gather(1, target.unsqueeze(1)).squeeze(1)
    return (-(1 - logp_t.exp()) ** gamma * logp_t).mean()


def make_batch(b=4):
    clean = torch.rand(b, FREQ, FRAMES)
    noisy = clean + 0.3 * torch.rand(b, FREQ, FRAMES)
    label_a = torch.randint(0, N_REGION, (b, FRAMES))
    label_b = (clean.mean(1) > 0.5).long()
    return noisy, clean, label_a, label_b


def main():
    torch.manual_seed(0)
    net = HGCN()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    history = {"spec": [], "region": []}
    for step in range(4):
        noisy, clean, label_a, label_b = make_batch()
        enhanced, region_a, region_b = net(noisy)
        loss_spec = F.mse_loss(enhanced, clean)
        loss_region = focal_loss(region_a, label_a) + focal_loss(region_b, label_b)
        loss = loss_spec + 0.1 * loss_region
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history["spec"].append(loss_spec.item())
        history["region"].append(loss_region.item())
        print(step, round(history["spec"][-1], 4), round(history["region"][-1], 4))


if __name__ == "__main__":
    main()
