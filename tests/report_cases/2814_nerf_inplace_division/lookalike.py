import torch
import torch.nn as nn

torch.manual_seed(0)


def mp_nerf_torch(a, b, c, l, theta, chi):
    """Place point d given a, b, c, bond length l, bond angle theta, dihedral chi."""
    ba = b - a
    cb = c - b
    n_plane = torch.cross(ba, cb, dim=-1)
    n_plane_ = torch.cross(n_plane, cb, dim=-1)
    norms = torch.stack([cb.norm(dim=-1), n_plane_.norm(dim=-1), n_plane.norm(dim=-1)], dim=-1)
    rotate = torch.stack([cb, n_plane_, n_plane], dim=-1)
    rotate /= norms.unsqueeze(-2)  # norms came from the pieces, not from `rotate` itself
    direction = torch.stack([-torch.cos(theta),
                             torch.sin(theta) * torch.cos(chi),
                             torch.sin(theta) * torch.sin(chi)], dim=-1)
    return c + l.unsqueeze(-1) * torch.matmul(rotate, direction.unsqueeze(-1)).squeeze(-1)


class AnglePredictor(nn.Module):
    def __init__(self, n_feat=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_feat, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, feats):
        out = self.net(feats)
        theta = 1.9 + 0.2 * torch.tanh(out[..., 0])
        chi = torch.pi * torch.tanh(out[..., 1])
        return theta, chi


def build_chain(model, feats, seed_coords):
    coords = list(seed_coords)
    theta, chi = model(feats)
    bond = torch.full(theta.shape[:1], 1.5)
    for i in range(feats.size(1)):
        d = mp_nerf_torch(coords[-3], coords[-2], coords[-1], bond, theta[:, i], chi[:, i])
        coords.append(d)
    return torch.stack(coords, dim=1)


model = AnglePredictor()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
B, L = 4, 6
seed = [torch.tensor([0.0, 0.0, 0.0]).expand(B, 3), torch.tensor([1.5, 0.0, 0.0]).expand(B, 3),
        torch.tensor([2.0, 1.4, 0.0]).expand(B, 3)]
for step in range(3):
    feats = torch.randn(B, L, 8)
    target = torch.randn(B, L + 3, 3) * 3
    coords = build_chain(model, feats, seed)
    loss = ((coords - target) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 4))
