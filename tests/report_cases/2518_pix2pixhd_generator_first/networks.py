import torch
import torch.nn as nn


class GlobalGenerator(nn.Module):
    def __init__(self, input_nc, output_nc, ngf=16):
        super().__init__()
        self.model = nn.Sequential(
            nn.ReflectionPad2d(3), nn.Conv2d(input_nc, ngf, 7), nn.InstanceNorm2d(ngf), nn.ReLU(True),
            nn.Conv2d(ngf, ngf * 2, 3, stride=2, padding=1), nn.InstanceNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 3, stride=2, padding=1, output_padding=1), nn.InstanceNorm2d(ngf), nn.ReLU(True),
            nn.ReflectionPad2d(3), nn.Conv2d(ngf, output_nc, 7), nn.Tanh())

    def forward(self, input):
        return self.model(input)


class NLayerDiscriminator(nn.Module):
    def __init__(self, input_nc, ndf=16, n_layers=2):
        super().__init__()
        seq = [[nn.Conv2d(input_nc, ndf, 4, stride=2, padding=2), nn.LeakyReLU(0.2, True)]]
        nf = ndf
        for n in range(1, n_layers):
            nf_prev, nf = nf, min(nf * 2, 512)
            seq += [[nn.Conv2d(nf_prev, nf, 4, stride=2, padding=2), nn.InstanceNorm2d(nf), nn.LeakyReLU(0.2, True)]]
        seq += [[nn.Conv2d(nf, 1, 4, stride=1, padding=2)]]
        self.layers = nn.ModuleList([nn.Sequential(*s) for s in seq])

    def forward(self, input):
        res = [input]
        for layer in self.layers:
            res.append(layer(res[-1]))
        return res[1:]


class GANLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.MSELoss()

    def __call__(self, input, target_is_real):
        pred = input[-1]
        target = torch.full_like(pred, 1.0 if target_is_real else 0.0)
        return self.loss(pred, target)


class ImagePool:
    def __init__(self, pool_size):
        self.pool_size = pool_size
        self.images = []

    def query(self, images):
        out = []
        for image in images.detach():
            image = image.unsqueeze(0)
            if len(self.images) < self.pool_size:
                self.images.append(image)
                out.append(image)
            else:
                idx = torch.randint(0, self.pool_size, (1,)).item()
                out.append(self.images[idx].clone())
                self.images[idx] = image
        return torch.cat(out, 0)
