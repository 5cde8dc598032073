"""Learned data association for multi-object tracking: detections in each frame
are embedded, compared with the tracks' appearance memory by a small edge
network; the matching losses of a whole clip are summed and backpropagated
through the recurrent memory updates once per clip."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_OBJ, FEAT, EMB = 5, 12, 16


class AssocNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(FEAT, 32), nn.ReLU(), nn.Linear(32, EMB))
        self.edge = nn.Sequential(nn.Linear(2 * EMB, 32), nn.ReLU(), nn.Linear(32, 1))

    def scores(self, track_mem, det_emb):
        pairs = torch.cat([track_mem[:, None].expand(-1, det_emb.size(0), -1),
                           det_emb[None].expand(track_mem.size(0), -1, -1)], -1)
        return self.edge(pairs).squeeze(-1)            # [tracks, detections]


def make_clip(n_frames=6):
    identity = torch.randn(N_OBJ, FEAT)
    frames = []
    for _ in range(n_frames):
        perm = torch.randperm(N_OBJ)                   # detector output order is arbitrary
        frames.append((identity[perm] + 0.3 * torch.randn(N_OBJ, FEAT), perm))
    return frames


def train_clip(model, opt, frames):
    first, perm0 = frames[0]
    emb0 = model.embed(first)
    track_mem = emb0[torch.argsort(perm0)]             # one track per identity
    losses = []
    for det, perm in frames[1:]:
        det_emb = model.embed(det)
        logits = model.scores(track_mem, det_emb)
        target = torch.argsort(perm)                   # detection index of each track
        losses.append(F.cross_entropy(logits, target))
        track_mem = 0.5 * track_mem + 0.5 * det_emb[target]   # memory keeps its graph within the clip
    clip_loss = torch.stack(losses).mean()
    opt.zero_grad()
    clip_loss.backward()                               # one backward per clip, memory rebuilt next clip
    opt.step()
    return clip_loss.item()


def main():
    model = AssocNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for clip in range(4):
        print(f"clip {clip} mean matching loss {train_clip(model, opt, make_clip()):.4f}")


if __name__ == "__main__":
    main()
