import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.InstanceNorm2d(cout), nn.ReLU())


class EdgeGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(conv_block(3, 16), conv_block(16, 16), nn.Conv2d(16, 1, 3, padding=1))

    def forward(self, x):
        return torch.sigmoid(self.net(x))


class InpaintGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(conv_block(4, 16), conv_block(16, 16), nn.Conv2d(16, 3, 3, padding=1))

    def forward(self, x):
        return (torch.tanh(self.net(x)) + 1) / 2


class Discriminator(nn.Module):
    def __init__(self, in_channels):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(in_channels, 16, 4, 2, 1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(16, 1, 4, 2, 1))

    def forward(self, x):
        return self.net(x)


class BaseModel(nn.Module):
    def backward(self, gen_loss=None, dis_loss=None):
        if dis_loss is not None:
            dis_loss.backward()
        if gen_loss is not None:
            gen_loss.backward()
        self.dis_optimizer.step()
        self.gen_optimizer.step()


class EdgeModel(BaseModel):
    def __init__(self, lr=1e-4):
        super().__init__()
        self.generator = EdgeGenerator()
        self.discriminator = Discriminator(2)
        self.gen_optimizer = torch.optim.Adam(self.generator.parameters(), lr=lr, betas=(0.0, 0.9))
        self.dis_optimizer = torch.optim.Adam(self.discriminator.parameters(), lr=lr * 0.1, betas=(0.0, 0.9))

    def process(self, images_gray, edges, masks):
        self.gen_optimizer.zero_grad()
        self.dis_optimizer.zero_grad()
        edges_masked = edges * (1 - masks)
        outputs = self.generator(torch.cat((images_gray * (1 - masks), edges_masked, masks), dim=1))
        dis_real = self.discriminator(torch.cat((images_gray, edges), dim=1))
        dis_fake = self.discriminator(torch.cat((images_gray, outputs.detach()), dim=1))
        dis_loss = (F.softplus(-dis_real).mean() + F.softplus(dis_fake).mean()) / 2
        gen_fake = self.discriminator(torch.cat((images_gray, outputs), dim=1))
        gen_loss = F.softplus(-gen_fake).mean() + F.l1_loss(outputs, edges)
        return outputs, gen_loss, dis_loss


class InpaintingModel(BaseModel):
    def __init__(self, lr=1e-4):
        super().__init__()
        self.generator = InpaintGenerator()
        self.discriminator = Discriminator(3)
        self.gen_optimizer = torch.optim.Adam(self.generator.parameters(), lr=lr, betas=(0.0, 0.9))
        self.dis_optimizer = torch.optim.Adam(self.discriminator.parameters(), lr=lr * 0.1, betas=(0.0, 0.9))

    def process(self, images, edges, masks):
        self.gen_optimizer.zero_grad()
        self.dis_optimizer.zero_grad()
        images_masked = images * (1 - masks) + masks
        outputs = self.generator(torch.cat((images_masked, edges), dim=1))
        dis_loss = (F.softplus(-self.discriminator(images)).mean()
                    + F.softplus(self.discriminator(outputs.detach())).mean()) / 2
        gen_loss = F.softplus(-self.discriminator(outputs)).mean() + F.l1_loss(outputs, images) * 10
        return outputs, gen_loss, dis_loss
