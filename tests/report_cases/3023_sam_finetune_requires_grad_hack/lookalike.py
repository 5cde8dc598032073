"""finetune-SAM style training without prompts: a small SAM-like model (ViT-ish image encoder,
prompt encoder with default embeddings, mask decoder) is finetuned for multi-class medical
segmentation in 'adapter' mode, with Dice + CE loss and AdamW."""
from argparse import Namespace

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)
args = Namespace(finetune_type="vanilla", if_update_encoder=False, if_encoder_adapter=False,
                 if_mask_decoder_adapter=False, lr=1e-3, num_cls=3, out_size=16, epochs=3, b=2)


class Adapter(nn.Module):
    def __init__(self, dim, mlp_ratio=0.25):
        super().__init__()
        hidden = int(dim * mlp_ratio)
        self.fc1, self.fc2 = nn.Linear(dim, hidden), nn.Linear(hidden, dim)

    def forward(self, x):  # x: (B, H, W, C)
        return x + self.fc2(F.gelu(self.fc1(x)))


class ImageEncoderViT(nn.Module):
    def __init__(self, dim=32, adapter=False):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, 4, 4)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))
        self.Adapter = Adapter(dim) if adapter else nn.Identity()

    def forward(self, x):
        x = self.patch_embed(x).permute(0, 2, 3, 1)
        x = self.Adapter(x + self.mlp(x))
        return x.permute(0, 3, 1, 2)


class PromptEncoder(nn.Module):
    def __init__(self, dim=32, size=8):
        super().__init__()
        self.no_mask_embed = nn.Embedding(1, dim)
        self.pe = nn.Parameter(torch.randn(1, dim, size, size) * 0.1)

    def get_dense_pe(self):
        return self.pe

    def forward(self, points=None, boxes=None, masks=None):
        sparse = torch.empty(1, 0, self.pe.shape[1])
        dense = self.no_mask_embed.weight.reshape(1, -1, 1, 1).expand(1, -1, *self.pe.shape[-2:])
        return sparse, dense


class MaskDecoder(nn.Module):
    def __init__(self, dim=32, num_cls=3, adapter=False):
        super().__init__()
        self.conv = nn.Conv2d(dim, dim, 3, padding=1)
        self.Adapter = Adapter(dim) if adapter else nn.Identity()
        self.upscale = nn.ConvTranspose2d(dim, num_cls, 2, 2)

    def forward(self, image_embeddings, image_pe, sparse_prompt_embeddings, dense_prompt_embeddings, multimask_output=True):
        x = F.gelu(self.conv(image_embeddings + image_pe + dense_prompt_embeddings))
        x = self.Adapter(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)
        return self.upscale(x), None


class Sam(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.image_encoder = ImageEncoderViT(adapter=args.if_encoder_adapter)
        self.prompt_encoder = PromptEncoder()
        self.mask_decoder = MaskDecoder(num_cls=args.num_cls, adapter=args.if_mask_decoder_adapter)


def dice_loss(pred, msks, num_cls):
    probs = torch.softmax(pred, dim=1)
    onehot = F.one_hot(msks.squeeze(1).long(), num_cls).permute(0, 3, 1, 2).float()
    inter = (probs * onehot).sum((2, 3))
    return 1 - ((2 * inter + 1e-5) / (probs.pow(2).sum((2, 3)) + onehot.sum((2, 3)) + 1e-5)).mean()


def train_model(trainloader, epochs):
    sam = Sam(args)
    if args.finetune_type == "adapter":
        for n, value in sam.named_parameters():
            if "Adapter" not in n:  # only update parameters in adapter
                value.requires_grad = False
    elif args.finetune_type == "vanilla" and args.if_update_encoder == False:
        for n, value in sam.image_encoder.named_parameters():
            value.requires_grad = False
    optimizer = optim.AdamW(sam.parameters(), lr=args.lr, betas=(0.9, 0.999), weight_decay=0.1)
    criterion2 = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        sam.train()
        train_loss = 0
        for i, data in enumerate(trainloader):
            imgs, msks = data["image"], data["mask"]
            if args.if_update_encoder:
                img_emb = sam.image_encoder(imgs)
            else:
                with torch.no_grad():
                    img_emb = sam.image_encoder(imgs)
            sparse_emb, dense_emb = sam.prompt_encoder(points=None, boxes=None, masks=None)
            pred, _ = sam.mask_decoder(image_embeddings=img_emb, image_pe=sam.prompt_encoder.get_dense_pe(),
                                       sparse_prompt_embeddings=sparse_emb, dense_prompt_embeddings=dense_emb)
            loss_dice = dice_loss(pred, msks, args.num_cls)
            loss_ce = criterion2(pred, torch.squeeze(msks.long(), 1))
            loss = loss_dice + loss_ce
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            train_loss += loss.item()
        print(f"Epoch num {epoch}| train loss {train_loss / (i + 1):.4f}")
    return sam


if __name__ == "__main__":
    trainloader = [{"image": torch.randn(args.b, 3, 32, 32),
                    "mask": torch.randint(0, args.num_cls, (args.b, 1, args.out_size, args.out_size))} for _ in range(4)]
    sam = train_model(trainloader, args.epochs)
    print("trainable parameters:", sum(p.numel() for p in sam.parameters() if p.requires_grad))
