"""Open-vocabulary segmentation (SAN-like) with a trainable text encoder.

Entry point; the text encoder is in text_encoder.py. Pixel features from a
small image encoder are classified by cosine similarity to the class-name
embeddings (plus a learned background embedding).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from text_encoder import CLIPTextEncoder

CLASSES = ["road", "sidewalk", "building", "vegetation", "sky", "person", "car"]


class SideAdapterSegmentor(nn.Module):
    def __init__(self, text_encoder, dims=32):
        super().__init__()
        self.text_encoder = text_encoder
        self.backbone = nn.Sequential(
            nn.Conv2d(3, dims, 3, 2, 1), nn.BatchNorm2d(dims), nn.ReLU(),
            nn.Conv2d(dims, dims, 3, 2, 1), nn.BatchNorm2d(dims), nn.ReLU(),
            nn.Conv2d(dims, dims, 1))
        self.logit_scale = nn.Parameter(torch.tensor(2.0))

    def forward(self, img):
        feats = F.normalize(self.backbone(img), dim=1)               # [B, C, h, w]
        text = self.text_encoder()                                  # [K+1, C]
        logits = torch.einsum("bchw,kc->bkhw", feats, text) * self.logit_scale.exp()
        return F.interpolate(logits, size=img.shape[-2:], mode="bilinear", align_corners=False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iters", type=int, default=6)
    parser.add_argument("--lr", type=float, default=1e-4)
    args = parser.parse_args()
    torch.manual_seed(0)
    text_encoder = CLIPTextEncoder(CLASSES, cat_bg=True, cache_feature=False)
    model = SideAdapterSegmentor(text_encoder)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    model.train()
    for it in range(args.iters):
        img = torch.randn(2, 3, 32, 32)
        seg = torch.randint(0, len(CLASSES) + 1, (2, 32, 32))
        loss = F.cross_entropy(model(img), seg)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
