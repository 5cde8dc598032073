"""Zero-shot-style anomaly segmentation: a frozen vision backbone, trainable
patch adapters and learnable 'normal' / 'anomalous' prompt embeddings. The
anomaly map is the cosine similarity between adapted patch tokens and the two
prompt embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

EMBED = 64


class FrozenBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 32, 4, stride=4)
        self.block = nn.Sequential(nn.Conv2d(32, 32, 3, padding=1), nn.GELU())
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        f = self.block(self.stem(x))
        return f.flatten(2).transpose(1, 2)  # B, N, 32


class PatchAdapter(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(32, EMBED), nn.GELU(), nn.Linear(EMBED, EMBED))

    def forward(self, tokens):
        feat = self.proj(tokens)
        feat /= feat.norm(dim=-1, keepdim=True)
        return feat


class PromptLearner(nn.Module):
    def __init__(self, n_ctx=4):
        super().__init__()
        self.ctx = nn.Parameter(torch.randn(2, n_ctx, EMBED) * 0.02)
        self.text_proj = nn.Linear(EMBED, EMBED)

    def forward(self):
        text = self.text_proj(self.ctx.mean(dim=1))  # [normal, anomalous]
        return F.normalize(text, dim=-1)


class AnomalyModel(nn.Module):
    def __init__(self, temperature=0.07):
        super().__init__()
        self.backbone = FrozenBackbone().eval()
        self.adapter = PatchAdapter()
        self.prompts = PromptLearner()
        self.temperature = temperature

    def forward(self, images):
        tokens = self.backbone(images)
        feat = self.adapter(tokens)
        text = self.prompts()
        logits = feat @ text.t() / self.temperature       # B, N, 2
        side = int(logits.size(1) ** 0.5)
        amap = logits.softmax(-1)[..., 1].view(-1, 1, side, side)
        amap = F.interpolate(amap, size=images.shape[-2:], mode="bilinear", align_corners=False)
        image_logit = logits[..., 1].max(dim=1).values - logits[..., 0].mean(dim=1)
        return amap, image_logit


def dice_loss(pred, target, eps=1.0):
    inter = (pred * target).sum(dim=(1, 2, 3))
    return 1 - ((2 * inter + eps) / (pred.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3)) + eps)).mean()


def synthetic_batch(batch=6, size=32):
    images = torch.randn(batch, 3, size, size)
    masks = torch.zeros(batch, 1, size, size)
    labels = torch.randint(0, 2, (batch,)).float()
    for i in range(batch):
        if labels[i] > 0:
            r, c = torch.randint(0, size - 8, (2,)).tolist()
            masks[i, :, r : r + 8, c : c + 8] = 1.0
            images[i, :, r : r + 8, c : c + 8] += 2.0
    return images, masks, labels


def main():
    model = AnomalyModel()
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=1e-3)
    for step in range(12):
        images, masks, labels = synthetic_batch()
        amap, image_logit = model(images)
        loss = dice_loss(amap, masks) + F.binary_cross_entropy_with_logits(image_logit, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 4 == 0:
            print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
