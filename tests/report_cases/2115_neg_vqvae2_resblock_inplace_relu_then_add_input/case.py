"""Encoder/decoder stacks from vq-vae-2-pytorch (vqvae.py): ResBlock starts with
ReLU(inplace=True) and ends with `out += input`.  The quantizer is replaced by a
1x1 bottleneck to keep the example small; trained as an autoencoder on random
images."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResBlock(nn.Module):
    def __init__(self, in_channel, channel):
        super().__init__()
        self.conv = nn.Sequential(
            nn.ReLU(inplace=True),
            nn.Conv2d(in_channel, channel, 3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(channel, in_channel, 1),
        )

    def forward(self, input):
        out = self.conv(input)
        out += input
        return out


class Encoder(nn.Module):
    def __init__(self, in_channel, channel, n_res_block, n_res_channel):
        super().__init__()
        blocks = [
            nn.Conv2d(in_channel, channel // 2, 4, stride=2, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(channel // 2, channel, 3, padding=1),
        ]
        for _ in range(n_res_block):
            blocks.append(ResBlock(channel, n_res_channel))
        blocks.append(nn.ReLU(inplace=True))
        self.blocks = nn.Sequential(*blocks)

    def forward(self, input):
        return self.blocks(input)


class Decoder(nn.Module):
    def __init__(self, in_channel, out_channel, channel, n_res_block, n_res_channel):
        super().__init__()
        blocks = [nn.Conv2d(in_channel, channel, 3, padding=1)]
        for _ in range(n_res_block):
            blocks.append(ResBlock(channel, n_res_channel))
        blocks.append(nn.ReLU(inplace=True))
        blocks.append(nn.ConvTranspose2d(channel, out_channel, 4, stride=2, padding=1))
        self.blocks = nn.Sequential(*blocks)

    def forward(self, input):
        return self.blocks(input)


class AutoEncoder(nn.Module):
    def __init__(self, channel=16, n_res_block=2, n_res_channel=8, embed_dim=4):
        super().__init__()
        self.enc = Encoder(3, channel, n_res_block, n_res_channel)
        self.bottleneck = nn.Conv2d(channel, embed_dim, 1)
        self.dec = Decoder(embed_dim, 3, channel, n_res_block, n_res_channel)

    def forward(self, x):
        return self.dec(self.bottleneck(self.enc(x)))


def train(epochs=2, iters=4):
    torch.manual_seed(0)
    model = AutoEncoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    mse_sum, mse_n = 0.0, 0
    for epoch in range(epochs):
        for i in range(iters):
            img = torch.rand(4, 3, 16, 16) * 2 - 1
            model.zero_grad()
            out = model(img)
            recon_loss = F.mse_loss(out, img)
            recon_loss.backward()
            optimizer.step()
            mse_sum += recon_loss.item() * img.shape[0]
            mse_n += img.shape[0]
        print(f"epoch {epoch + 1}; mse: {mse_sum / mse_n:.5f}")


if __name__ == "__main__":
    train()
