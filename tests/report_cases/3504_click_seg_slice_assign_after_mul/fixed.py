"""Interactive segmentation toy: a small conv net predicts a mask; the user's
click (position + positive/negative type) modulates the feature vector at the
clicked pixel through a learned per-channel gain."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
H = W = 24


class ClickSegNet(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(ch, ch, 3, padding=1))
        self.click_embed = nn.Embedding(2, ch)      # 0 = negative click, 1 = positive click
        self.gain_mlp = nn.Sequential(nn.Linear(ch, ch), nn.Sigmoid())
        self.head = nn.Sequential(nn.ReLU(), nn.Conv2d(ch, 1, 1))

    def forward(self, img, clicks, click_type):
        feat = self.backbone(img)
        gain = 2.0 * self.gain_mlp(self.click_embed(click_type))   # (B, ch)
        # build the modulation map out of place: 1 everywhere, gain at the click
        click_map = torch.zeros(img.size(0), 1, H, W)
        for b in range(img.size(0)):
            cy, cx = clicks[b]
            click_map[b, 0, cy, cx] = 1.0          # constant mask, no grad
        modulation = 1.0 + click_map * (gain[:, :, None, None] - 1.0)
        return self.head(feat * modulation)


def make_batch(n=8):
    img = torch.randn(n, 3, H, W)
    yy, xx = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
    centers = torch.randint(6, 18, (n, 2))
    masks = torch.stack([(((yy - c[0]) ** 2 + (xx - c[1]) ** 2) < 25).float() for c in centers])
    img[:, 0] += 2 * masks                       # object is brighter in the red channel
    click_type = torch.randint(0, 2, (n,))
    return img, masks.unsqueeze(1), centers.tolist(), click_type


def train(model, steps=6):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        img, mask, clicks, click_type = make_batch()
        logits = model(img, clicks, click_type)
        loss = F.binary_cross_entropy_with_logits(logits, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} bce {loss.item():.4f}")


if __name__ == "__main__":
    train(ClickSegNet())
