import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def warp(x, flo):
    """Warp an image/tensor (im2) back to im1, according to the optical flow.

    x: [B, C, H, W] (im2), flo: [B, 2, H, W] flow."""
    B, C, H, W = x.size()
    xx = torch.arange(0, W).view(1, -1).repeat(H, 1)
    yy = torch.arange(0, H).view(-1, 1).repeat(1, W)
    xx = xx.view(1, 1, H, W).repeat(B, 1, 1, 1)
    yy = yy.view(1, 1, H, W).repeat(B, 1, 1, 1)
    grid = torch.cat((xx, yy), 1).float()
    vgrid = grid + flo

    # scale grid to [-1,1]
    vgrid[:, 0, :, :] = 2.0 * vgrid[:, 0, :, :].clone() / max(W - 1, 1) - 1.0
    vgrid[:, 1, :, :] = 2.0 * vgrid[:, 1, :, :].clone() / max(H - 1, 1) - 1.0

    vgrid = vgrid.permute(0, 2, 3, 1)
    output = F.grid_sample(x, vgrid, align_corners=True)
    mask = torch.ones_like(x)
    mask = F.grid_sample(mask, vgrid, align_corners=True)
    mask = (mask >= 0.9999).float()
    return output * mask


class FlowNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(6, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 2, 3, padding=1))

    def forward(self, im1, im2):
        return self.net(torch.cat([im1, im2], dim=1))


def photometric_loss(im1, im2_warped):
    return (im1 - im2_warped).abs().mean()


def smoothness_loss(flow):
    dx = flow[:, :, :, 1:] - flow[:, :, :, :-1]
    dy = flow[:, :, 1:, :] - flow[:, :, :-1, :]
    return dx.abs().mean() + dy.abs().mean()


model = FlowNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for it in range(6):
    im1 = torch.rand(2, 3, 16, 16)
    im2 = torch.roll(im1, shifts=1, dims=3) + 0.01 * torch.randn(2, 3, 16, 16)
    flow = model(im1, im2)
    loss = photometric_loss(im1, warp(im2, flow)) + 0.1 * smoothness_loss(flow)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print('iter %d  loss %.4f' % (it, loss.item()))
