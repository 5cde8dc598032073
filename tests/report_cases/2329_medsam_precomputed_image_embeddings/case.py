"""MedSAM-style fine-tuning of the mask decoder on pre-computed image
embeddings: the (frozen) image encoder runs once over the training images
before the epoch loop, and only the prompt encoder / mask decoder train.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class ImageEncoderViT(nn.Module):
    def __init__(self, dim=32, patch=8):
        super().__init__()
        self.patch_embed = nn.Conv2d(1, dim, patch, patch)
        layer = nn.TransformerEncoderLayer(dim, 4, 2 * dim, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, 2)
        self.neck = nn.Conv2d(dim, dim, 1)

    def forward(self, x):
        x = self.patch_embed(x)
        B, C, H, W = x.shape
        x = self.blocks(x.flatten(2).transpose(1, 2)).transpose(1, 2).reshape(B, C, H, W)
        return self.neck(x)


class PromptEncoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.box_embed = nn.Linear(4, dim)

    def forward(self, boxes):
        return self.box_embed(boxes)


class MaskDecoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.fuse = nn.Conv2d(dim, dim, 3, padding=1)
        self.upscale = nn.Sequential(nn.ConvTranspose2d(dim, dim // 2, 2, 2), nn.GELU(),
                                     nn.ConvTranspose2d(dim // 2, 1, 2, 2))

    def forward(self, image_embeddings, sparse_embeddings):
        x = image_embeddings + sparse_embeddings[:, :, None, None]
        return self.upscale(F.gelu(self.fuse(x)))


def dice_loss(logits, gt):
    p = torch.sigmoid(logits)
    inter = (p * gt).sum((1, 2, 3))
    return (1 - (2 * inter + 1) / (p.sum((1, 2, 3)) + gt.sum((1, 2, 3)) + 1)).mean()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_epochs", type=int, default=4)
    parser.add_argument("--batch_size", type=int, default=4)
    parser.add_argument("--lr", type=float, default=1e-4)
    args = parser.parse_args()

    torch.manual_seed(0)
    image_encoder, prompt_encoder, mask_decoder = ImageEncoderViT(), PromptEncoder(), MaskDecoder()
    image_encoder.eval()
    images = torch.rand(16, 1, 64, 64)
    gts = (images > 0.6).float()
    boxes = torch.rand(16, 4)

    # pre-compute the image embeddings once with the frozen encoder
    with torch.no_grad():
        img_embeddings = torch.cat([image_encoder(images[i:i + 4]) for i in range(0, 16, 4)])

    params = list(mask_decoder.parameters()) + list(prompt_encoder.parameters())
    optimizer = torch.optim.Adam(params, lr=args.lr, weight_decay=0)
    for epoch in range(args.num_epochs):
        epoch_loss = 0
        for step, i in enumerate(range(0, 16, args.batch_size)):
            embedding = img_embeddings[i:i + args.batch_size]
            sparse = prompt_encoder(boxes[i:i + args.batch_size])
            mask_pred = mask_decoder(embedding, sparse)
            gt = F.interpolate(gts[i:i + args.batch_size], size=mask_pred.shape[-2:])
            loss = dice_loss(mask_pred, gt) + F.binary_cross_entropy_with_logits(mask_pred, gt)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        print(f"EPOCH: {epoch}, Loss: {epoch_loss / (step + 1):.4f}")


if __name__ == "__main__":
    main()
