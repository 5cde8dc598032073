import torch.nn as nn


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Linear") != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
        nn.init.zeros_(m.bias.data)
    elif classname.find("BatchNorm") != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)


class Generator(nn.Module):
    def __init__(self, nz, ngf, out_dim):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(nz, ngf),
            nn.BatchNorm1d(ngf),
            nn.ReLU(True),
            nn.Linear(ngf, ngf * 2),
            nn.BatchNorm1d(ngf * 2),
            nn.ReLU(True),
            nn.Linear(ngf * 2, out_dim),
            nn.Tanh(),
        )

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self, in_dim, ndf):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(in_dim, ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(ndf * 2, ndf),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(ndf, 1),
        )

    def forward(self, x):
        return self.main(x).view(-1)
