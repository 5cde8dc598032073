"""Semantic segmentation with a small BiFPN-style neck: a 3-level backbone,
one bidirectional fusion block with fast normalised (softplus) fusion weights,
and a 1x1 classifier on the finest level."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CLS, FEAT = 3, 16


def conv_bn(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


class BiFPNBlock(nn.Module):
    def __init__(self, ch=FEAT, epsilon=1e-4):
        super().__init__()
        self.epsilon = epsilon
        self.p4_td, self.p3_td = conv_bn(ch, ch), conv_bn(ch, ch)
        self.p4_out, self.p5_out = conv_bn(ch, ch), conv_bn(ch, ch)
        self.w1 = nn.Parameter(torch.ones(2, 2))
        self.w1_act = nn.Softplus()
        self.w2 = nn.Parameter(torch.ones(3, 2))
        self.w2_act = nn.Softplus()

    def forward(self, p3, p4, p5):
        w1 = self.w1_act(self.w1)           # softplus keeps its input, not its output
        w1 /= torch.sum(w1, dim=0) + self.epsilon
        w2 = self.w2_act(self.w2)
        w2 /= torch.sum(w2, dim=0) + self.epsilon
        up = lambda t: F.interpolate(t, scale_factor=2, mode="nearest")
        down = lambda t: F.max_pool2d(t, 2)
        p4_td = self.p4_td(w1[0, 0] * p4 + w1[1, 0] * up(p5))
        p3_out = self.p3_td(w1[0, 1] * p3 + w1[1, 1] * up(p4_td))
        p4_out = self.p4_out(w2[0, 0] * p4 + w2[1, 0] * p4_td + w2[2, 0] * down(p3_out))
        p5_out = self.p5_out(w2[0, 1] * p5 + w2[1, 1] * p5 + w2[2, 1] * down(p4_out))
        return p3_out, p4_out, p5_out


class SegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c3 = conv_bn(3, FEAT, 2)
        self.c4 = conv_bn(FEAT, FEAT, 2)
        self.c5 = conv_bn(FEAT, FEAT, 2)
        self.bifpn = BiFPNBlock()
        self.cls = nn.Conv2d(FEAT, N_CLS, 1)

    def forward(self, x):
        p3 = self.c3(x)
        p4 = self.c4(p3)
        p5 = self.c5(p4)
        p3, _, _ = self.bifpn(p3, p4, p5)
        return F.interpolate(self.cls(p3), size=x.shape[-2:], mode="bilinear", align_corners=False)


def make_batch(n=4, size=32):
    img = torch.randn(n, 3, size, size)
    label = (img[:, 0] > 0.5).long() + (img[:, 1] > 0.8).long()   # 3 pixel classes
    return img, label


def main():
    model = SegNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for it in range(5):
        img, label = make_batch()
        loss = F.cross_entropy(model(img), label)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"iter {it} ce {loss.item():.4f}")


if __name__ == "__main__":
    main()
