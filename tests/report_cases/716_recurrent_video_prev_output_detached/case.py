"""Recurrent video denoiser: each frame is refined using the previous output frame."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainConfig:
    clips: int = 3
    frames_per_clip: int = 4
    lr: float = 1e-3
    size: int = 12


class RecurrentDenoiser(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.fuse = nn.Conv2d(6 + ch, ch, 3, padding=1)
        self.out = nn.Conv2d(ch, 3, 3, padding=1)
        self.ch = ch

    def forward(self, noisy, prev_out, state):
        state = torch.tanh(self.fuse(torch.cat([noisy, prev_out, state], dim=1)))
        return noisy + self.out(state), state


def video_clips(cfg):
    for _ in range(cfg.clips):
        clean = torch.rand(1, 3, cfg.size, cfg.size).expand(cfg.frames_per_clip, -1, -1, -1)
        clean = clean + 0.05 * torch.randn_like(clean)
        yield clean, clean + 0.2 * torch.randn_like(clean)


def main(cfg=TrainConfig()):
    torch.manual_seed(0)
    model = RecurrentDenoiser()
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for clip_idx, (clean, noisy) in enumerate(video_clips(cfg)):
        prev_out = noisy[:1].clone()
        state = torch.zeros(1, model.ch, cfg.size, cfg.size)
        for t in range(cfg.frames_per_clip):
            out, state = model(noisy[t:t + 1], prev_out, state)
            loss = F.l1_loss(out, clean[t:t + 1])
            opt.zero_grad()
            loss.backward()
            opt.step()
            prev_out, state = out.detach(), state.detach()
        print(f"clip {clip_idx}: last loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
