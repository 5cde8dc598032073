"""Frame interpolation toy with a custom autograd Function for softmax-weighted forward warping."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SoftSplat(torch.autograd.Function):
    """Forward-warp features by an integer horizontal flow, weighted by exp(metric)."""

    @staticmethod
    def forward(ctx, tenIn, tenMetric, shift):
        ctx.save_for_backward(tenIn.clone(), tenMetric.clone())
        ctx.shift = shift
        weight = torch.exp(tenMetric)
        num = torch.roll(tenIn * weight, shifts=shift, dims=3)
        den = torch.roll(weight, shifts=shift, dims=3)
        return num / (den + 1e-7)

    @staticmethod
    def backward(ctx, grad_out):
        tenIn, tenMetric = ctx.saved_tensors
        shift = ctx.shift
        weight = torch.exp(tenMetric)
        den = torch.roll(weight, shifts=shift, dims=3) + 1e-7
        g = torch.roll(grad_out / den, shifts=-shift, dims=3)
        grad_in = g * weight
        out = torch.roll(tenIn * weight, shifts=shift, dims=3) / den
        g_w = torch.roll(((grad_out * out) / den).sum(1, keepdim=True), shifts=-shift, dims=3)
        grad_metric = (g * tenIn).sum(1, keepdim=True) * weight - g_w * weight
        return grad_in, grad_metric, None


class Interpolator(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.encoder = nn.Conv2d(3, ch, 3, padding=1)
        self.metric = nn.Conv2d(3, 1, 3, padding=1)
        self.relu = nn.ReLU(inplace=True)
        self.decoder = nn.Sequential(nn.Conv2d(2 * ch, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, 3, 3, padding=1))

    def forward(self, frame0, shift):
        feat = self.encoder(frame0)
        metric = self.metric(frame0)
        warped = SoftSplat.apply(feat, metric, shift)
        feat = self.relu(feat)
        return self.decoder(torch.cat([warped, feat], dim=1))


def main(iters=3):
    torch.manual_seed(0)
    net = Interpolator()
    optimizer = torch.optim.AdamW(net.parameters(), lr=1e-3)
    for it in range(iters):
        frame0 = torch.rand(2, 3, 12, 12)
        frame_t = torch.roll(frame0, shifts=1, dims=3)
        pred = net(frame0, shift=1)
        loss = F.l1_loss(pred, frame_t)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it}: l1 {loss.item():.4f}")


if __name__ == "__main__":
    main()
