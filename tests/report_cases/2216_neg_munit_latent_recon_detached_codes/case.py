import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

style_dim = 8
n_epochs, decay_epoch = 3, 1
lambda_gan, lambda_id, lambda_style, lambda_cont, lambda_cyc = 1, 10, 1, 1, 0.5


class ResidualBlock(nn.Module):
    def __init__(self, features):
        super(ResidualBlock, self).__init__()
        self.block = nn.Sequential(nn.Conv2d(features, features, 3, padding=1), nn.InstanceNorm2d(features),
                                   nn.ReLU(inplace=True), nn.Conv2d(features, features, 3, padding=1),
                                   nn.InstanceNorm2d(features))

    def forward(self, x):
        return x + self.block(x)


class ContentEncoder(nn.Module):
    def __init__(self, in_channels=3, dim=16):
        super(ContentEncoder, self).__init__()
        self.model = nn.Sequential(nn.Conv2d(in_channels, dim, 3, padding=1), nn.InstanceNorm2d(dim),
                                   nn.ReLU(inplace=True), nn.Conv2d(dim, dim * 2, 4, 2, 1),
                                   nn.InstanceNorm2d(dim * 2), nn.ReLU(inplace=True), ResidualBlock(dim * 2))

    def forward(self, x):
        return self.model(x)


class StyleEncoder(nn.Module):
    def __init__(self, in_channels=3, dim=16, style_dim=8):
        super(StyleEncoder, self).__init__()
        self.model = nn.Sequential(nn.Conv2d(in_channels, dim, 3, padding=1), nn.ReLU(inplace=True),
                                   nn.Conv2d(dim, dim * 2, 4, 2, 1), nn.ReLU(inplace=True),
                                   nn.AdaptiveAvgPool2d(1), nn.Conv2d(dim * 2, style_dim, 1))

    def forward(self, x):
        return self.model(x)


class Encoder(nn.Module):
    def __init__(self, in_channels=3, dim=16, style_dim=8):
        super(Encoder, self).__init__()
        self.content_encoder = ContentEncoder(in_channels, dim)
        self.style_encoder = StyleEncoder(in_channels, dim, style_dim)

    def forward(self, x):
        return self.content_encoder(x), self.style_encoder(x)


class Decoder(nn.Module):
    """Content features modulated by an MLP of the style code (AdaIN-like), upsampled back."""

    def __init__(self, out_channels=3, dim=32, style_dim=8):
        super(Decoder, self).__init__()
        self.mlp = nn.Sequential(nn.Linear(style_dim, 64), nn.ReLU(inplace=True), nn.Linear(64, 2 * dim))
        self.res = ResidualBlock(dim)
        self.up = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(dim, dim // 2, 3, padding=1),
                                nn.ReLU(inplace=True), nn.Conv2d(dim // 2, out_channels, 3, padding=1), nn.Tanh())

    def forward(self, content_code, style_code):
        gamma, beta = self.mlp(style_code.view(style_code.size(0), -1)).chunk(2, dim=1)
        h = F.instance_norm(self.res(content_code))
        h = h * (1 + gamma[:, :, None, None]) + beta[:, :, None, None]
        return self.up(h)


class MultiDiscriminator(nn.Module):
    def __init__(self, in_channels=3):
        super(MultiDiscriminator, self).__init__()
        self.models = nn.ModuleList()
        for _ in range(2):
            self.models.add_module('disc_%d' % len(self.models), nn.Sequential(
                nn.Conv2d(in_channels, 16, 4, 2, 1), nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(16, 32, 4, 2, 1), nn.LeakyReLU(0.2, inplace=True), nn.Conv2d(32, 1, 3, padding=1)))
        self.downsample = nn.AvgPool2d(3, stride=2, padding=[1, 1], count_include_pad=False)

    def compute_loss(self, x, gt):
        """Computes the MSE between model output and scalar gt"""
        loss = sum([torch.mean((out - gt) ** 2) for out in self.forward(x)])
        return loss

    def forward(self, x):
        outputs = []
        for m in self.models:
            outputs.append(m(x))
            x = self.downsample(x)
        return outputs


criterion_recon = torch.nn.L1Loss()
Enc1, Dec1, Enc2, Dec2 = Encoder(), Decoder(), Encoder(), Decoder()
D1, D2 = MultiDiscriminator(), MultiDiscriminator()

optimizer_G = torch.optim.Adam(itertools.chain(Enc1.parameters(), Dec1.parameters(),
                                               Enc2.parameters(), Dec2.parameters()), lr=1e-4, betas=(0.5, 0.999))
optimizer_D1 = torch.optim.Adam(D1.parameters(), lr=1e-4, betas=(0.5, 0.999))
optimizer_D2 = torch.optim.Adam(D2.parameters(), lr=1e-4, betas=(0.5, 0.999))


class LambdaLR:
    def __init__(self, n_epochs, offset, decay_start_epoch):
        self.n_epochs, self.offset, self.decay_start_epoch = n_epochs, offset, decay_start_epoch

    def step(self, epoch):
        return 1.0 - max(0, epoch + self.offset - self.decay_start_epoch) / (self.n_epochs - self.decay_start_epoch)


lr_scheduler_G = torch.optim.lr_scheduler.LambdaLR(optimizer_G, lr_lambda=LambdaLR(n_epochs, 0, decay_epoch).step)
lr_scheduler_D1 = torch.optim.lr_scheduler.LambdaLR(optimizer_D1, lr_lambda=LambdaLR(n_epochs, 0, decay_epoch).step)
lr_scheduler_D2 = torch.optim.lr_scheduler.LambdaLR(optimizer_D2, lr_lambda=LambdaLR(n_epochs, 0, decay_epoch).step)


def dataloader(n, batch_size=4):
    for _ in range(n):
        A = torch.tanh(torch.randn(batch_size, 3, 16, 16))
        B = torch.tanh(torch.randn(batch_size, 3, 16, 16).cumsum(-1) * 0.3)
        yield {'A': A, 'B': B}


valid, fake = 1, 0
for epoch in range(n_epochs):
    for i, batch in enumerate(dataloader(3)):
        X1, X2 = batch['A'], batch['B']
        style_1 = torch.randn(X1.size(0), style_dim, 1, 1)
        style_2 = torch.randn(X1.size(0), style_dim, 1, 1)

        # -------------------------------
        #  Train Encoders and Generators
        # -------------------------------
        optimizer_G.zero_grad()

        c_code_1, s_code_1 = Enc1(X1)
        c_code_2, s_code_2 = Enc2(X2)
        X11 = Dec1(c_code_1, s_code_1)
        X22 = Dec2(c_code_2, s_code_2)
        X21 = Dec1(c_code_2, style_1)
        X12 = Dec2(c_code_1, style_2)
        c_code_21, s_code_21 = Enc1(X21)
        c_code_12, s_code_12 = Enc2(X12)
        X121 = Dec1(c_code_12, s_code_1) if lambda_cyc > 0 else 0
        X212 = Dec2(c_code_21, s_code_2) if lambda_cyc > 0 else 0

        loss_GAN_1 = lambda_gan * D1.compute_loss(X21, valid)
        loss_GAN_2 = lambda_gan * D2.compute_loss(X12, valid)
        loss_ID_1 = lambda_id * criterion_recon(X11, X1)
        loss_ID_2 = lambda_id * criterion_recon(X22, X2)
        loss_s_1 = lambda_style * criterion_recon(s_code_21, style_1)
        loss_s_2 = lambda_style * criterion_recon(s_code_12, style_2)
        loss_c_1 = lambda_cont * criterion_recon(c_code_12, c_code_1.detach())
        loss_c_2 = lambda_cont * criterion_recon(c_code_21, c_code_2.detach())
        loss_cyc_1 = lambda_cyc * criterion_recon(X121, X1) if lambda_cyc > 0 else 0
        loss_cyc_2 = lambda_cyc * criterion_recon(X212, X2) if lambda_cyc > 0 else 0

        loss_G = (loss_GAN_1 + loss_GAN_2 + loss_ID_1 + loss_ID_2 + loss_s_1 + loss_s_2
                  + loss_c_1 + loss_c_2 + loss_cyc_1 + loss_cyc_2)
        loss_G.backward()
        optimizer_G.step()

        # -----------------------
        #  Train Discriminator 1
        # -----------------------
        optimizer_D1.zero_grad()
        loss_D1 = D1.compute_loss(X1, valid) + D1.compute_loss(X21.detach(), fake)
        loss_D1.backward()
        optimizer_D1.step()

        # -----------------------
        #  Train Discriminator 2
        # -----------------------
        optimizer_D2.zero_grad()
        loss_D2 = D2.compute_loss(X2, valid) + D2.compute_loss(X12.detach(), fake)
        loss_D2.backward()
        optimizer_D2.step()

        print("[Epoch %d/%d] [Batch %d] [D loss: %.4f] [G loss: %.4f]"
              % (epoch, n_epochs, i, (loss_D1 + loss_D2).item(), loss_G.item()))

    lr_scheduler_G.step()
    lr_scheduler_D1.step()
    lr_scheduler_D2.step()
