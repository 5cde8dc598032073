"""Gatys-style neural style transfer.

A small conv net stands in for VGG-19 (no pretrained weights offline); the image
itself is the only thing being optimised.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IMAGE_SIZE = 32
STYLE_LAYERS = (1, 3, 5)
CONTENT_LAYER = 3
STYLE_WEIGHT = 1e4
CONTENT_WEIGHT = 1.0
NUM_STEPS = 10


class FeatureExtractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
        ])

    def forward(self, x):
        feats = {}
        for i, layer in enumerate(self.layers):
            x = layer(x)
            feats[i] = x
        return feats


def gram_matrix(feat):
    b, c, h, w = feat.shape
    f = feat.view(b, c, h * w)
    return torch.bmm(f, f.transpose(1, 2)) / (c * h * w)


def load_images(size=IMAGE_SIZE):
    # stand-ins for the content photo and the painting
    content = torch.rand(1, 3, size, size)
    style = torch.rand(1, 3, size, size).pow(2)
    return content, style


def run_style_transfer(extractor, content, style, num_steps=NUM_STEPS):
    style_feats = extractor(style)
    content_feats = extractor(content)
    style_targets = {l: gram_matrix(style_feats[l]) for l in STYLE_LAYERS}
    content_target = content_feats[CONTENT_LAYER]

    image = content.clone().requires_grad_(True)
    optimizer = torch.optim.Adam([image], lr=0.05)

    for step in range(num_steps):
        optimizer.zero_grad()
        feats = extractor(image)
        content_loss = F.mse_loss(feats[CONTENT_LAYER], content_target)
        style_loss = sum(F.mse_loss(gram_matrix(feats[l]), style_targets[l]) for l in STYLE_LAYERS)
        loss = CONTENT_WEIGHT * content_loss + STYLE_WEIGHT * style_loss
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            image.clamp_(0.0, 1.0)
        if step % 5 == 0:
            print(f"step {step}: content {content_loss.item():.4f} style {style_loss.item():.4f}")
    return image.detach()


if __name__ == "__main__":
    extractor = FeatureExtractor().eval()
    extractor.requires_grad_(False)  # the extractor is a fixed loss network
    content_img, style_img = load_images()
    output = run_style_transfer(extractor, content_img, style_img)
    print("output range:", output.min().item(), output.max().item())
