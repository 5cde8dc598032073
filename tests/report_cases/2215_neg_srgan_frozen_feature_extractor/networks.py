import torch
import torch.nn as nn
import torch.nn.functional as F


class ResidualBlock_noBN(nn.Module):
    def __init__(self, nf=32):
        super(ResidualBlock_noBN, self).__init__()
        self.conv1 = nn.Conv2d(nf, nf, 3, 1, 1, bias=True)
        self.conv2 = nn.Conv2d(nf, nf, 3, 1, 1, bias=True)

    def forward(self, x):
        identity = x
        out = F.relu(self.conv1(x), inplace=True)
        out = self.conv2(out)
        return identity + out


class MSRResNet(nn.Module):
    """Modified SRResNet: conv -> residual blocks -> pixel-shuffle x2 upsampling."""

    def __init__(self, in_nc=3, out_nc=3, nf=32, nb=3, upscale=2):
        super(MSRResNet, self).__init__()
        self.conv_first = nn.Conv2d(in_nc, nf, 3, 1, 1, bias=True)
        self.recon_trunk = nn.Sequential(*[ResidualBlock_noBN(nf) for _ in range(nb)])
        self.upconv1 = nn.Conv2d(nf, nf * 4, 3, 1, 1, bias=True)
        self.pixel_shuffle = nn.PixelShuffle(upscale)
        self.HRconv = nn.Conv2d(nf, nf, 3, 1, 1, bias=True)
        self.conv_last = nn.Conv2d(nf, out_nc, 3, 1, 1, bias=True)
        self.lrelu = nn.LeakyReLU(negative_slope=0.1, inplace=True)
        self.upscale = upscale

    def forward(self, x):
        fea = self.lrelu(self.conv_first(x))
        out = self.recon_trunk(fea)
        out = self.lrelu(self.pixel_shuffle(self.upconv1(out)))
        out = self.conv_last(self.lrelu(self.HRconv(out)))
        base = F.interpolate(x, scale_factor=self.upscale, mode='bilinear', align_corners=False)
        return out + base


class Discriminator_VGG(nn.Module):
    def __init__(self, in_nc=3, base_nf=16, size=32):
        super(Discriminator_VGG, self).__init__()
        self.features = nn.Sequential(
            nn.Conv2d(in_nc, base_nf, 3, 1, 1), nn.LeakyReLU(0.2, True),
            nn.Conv2d(base_nf, base_nf, 4, 2, 1, bias=False), nn.BatchNorm2d(base_nf), nn.LeakyReLU(0.2, True),
            nn.Conv2d(base_nf, base_nf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(base_nf * 2),
            nn.LeakyReLU(0.2, True))
        self.classifier = nn.Sequential(nn.Linear(base_nf * 2 * (size // 4) ** 2, 64),
                                        nn.LeakyReLU(0.2, True), nn.Linear(64, 1))

    def forward(self, x):
        x = self.features(x)
        return self.classifier(x.view(x.size(0), -1))


class VGGFeatureExtractor(nn.Module):
    """Fixed (pretrained) feature network for the perceptual loss; never optimized."""

    def __init__(self, use_input_norm=True):
        super(VGGFeatureExtractor, self).__init__()
        self.use_input_norm = use_input_norm
        self.register_buffer('mean', torch.Tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1))
        self.register_buffer('std', torch.Tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1))
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, 1, 1), nn.ReLU(inplace=True),
            nn.Conv2d(16, 16, 3, 1, 1), nn.ReLU(inplace=True), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, 1, 1), nn.ReLU(inplace=True),
            nn.Conv2d(32, 32, 3, 1, 1))
        # No need to BP to variable
        for k, v in self.features.named_parameters():
            v.requires_grad = False

    def forward(self, x):
        if self.use_input_norm:
            x = (x - self.mean) / self.std
        return self.features(x)


class GANLoss(nn.Module):
    def __init__(self, gan_type='ragan', real_label_val=1.0, fake_label_val=0.0):
        super(GANLoss, self).__init__()
        self.real_label_val = real_label_val
        self.fake_label_val = fake_label_val
        self.loss = nn.BCEWithLogitsLoss()

    def forward(self, input, target_is_real):
        val = self.real_label_val if target_is_real else self.fake_label_val
        return self.loss(input, torch.empty_like(input).fill_(val))
