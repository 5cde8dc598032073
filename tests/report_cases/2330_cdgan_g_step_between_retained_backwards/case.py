"""Change-detection GAN (CSA-CDGAN train.py structure) on random bi-temporal
image pairs: the generator maps the concatenated pair to a change map, the
discriminator judges change maps. Both losses are built from one forward,
then G and D are updated one after the other.
"""
import torch
import torch.nn as nn
import torch.optim as optim


class ct:  # constants module of the original project
    ISIZE = 32
    NC = 3
    GT_C = 1
    BATCH_SIZE = 4
    LR = 2e-4
    EPOCH = 2
    G_WEIGHT = 200
    D_WEIGHT = 1
    STEPS = 3


class NetG(nn.Module):
    def __init__(self, nc_in=6, nf=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(nc_in, nf, 4, 2, 1), nn.LeakyReLU(0.2, True),
                                     nn.Conv2d(nf, 2 * nf, 4, 2, 1), nn.BatchNorm2d(2 * nf), nn.LeakyReLU(0.2, True))
        self.decoder = nn.Sequential(nn.ConvTranspose2d(2 * nf, nf, 4, 2, 1), nn.BatchNorm2d(nf), nn.ReLU(True),
                                     nn.ConvTranspose2d(nf, 1, 4, 2, 1), nn.Sigmoid())

    def forward(self, x):
        return self.decoder(self.encoder(x))


class NetD(nn.Module):
    def __init__(self, nc_in=1, nf=16):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(nc_in, nf, 4, 2, 1), nn.LeakyReLU(0.2, True),
                                      nn.Conv2d(nf, 2 * nf, 4, 2, 1), nn.BatchNorm2d(2 * nf), nn.LeakyReLU(0.2, True),
                                      nn.AdaptiveAvgPool2d(1))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(2 * nf, 1), nn.Sigmoid())

    def forward(self, x):
        return self.classifier(self.features(x)).view(-1)


def train_network():
    torch.manual_seed(0)
    netg, netd = NetG(ct.NC * 2), NetD(ct.GT_C)
    l_con = nn.L1Loss()
    l_bce = nn.BCELoss()
    optimizer_d = optim.Adam(netd.parameters(), lr=ct.LR, betas=(0.5, 0.999))
    optimizer_g = optim.Adam(netg.parameters(), lr=ct.LR, betas=(0.5, 0.999))

    for epoch in range(ct.EPOCH):
        loss_g, loss_d = [], []
        netg.train()
        netd.train()
        for i in range(ct.STEPS):
            x1 = torch.rand(ct.BATCH_SIZE, ct.NC, ct.ISIZE, ct.ISIZE)
            x2 = torch.rand(ct.BATCH_SIZE, ct.NC, ct.ISIZE, ct.ISIZE)
            gt = (torch.rand(ct.BATCH_SIZE, 1, ct.ISIZE, ct.ISIZE) > 0.8).float()
            x = torch.cat((x1, x2), 1)
            real_label = torch.ones(size=(x1.shape[0],), dtype=torch.float32)
            fake_label = torch.zeros(size=(x1.shape[0],), dtype=torch.float32)

            # forward
            fake = netg(x)
            pred_real = netd(gt)
            pred_fake = netd(fake)
            err_d_fake = l_bce(pred_fake, real_label)
            err_g = l_con(fake, gt)
            err_g_total = ct.G_WEIGHT * err_g + ct.D_WEIGHT * err_d_fake

            pred_fake_ = netd(fake.detach())
            err_d_real = l_bce(pred_real, real_label)
            err_d_fake_ = l_bce(pred_fake_, fake_label)
            err_d_total = (err_d_real + err_d_fake_) * 0.5

            # backward
            optimizer_g.zero_grad()
            err_g_total.backward(retain_graph=True)
            optimizer_g.step()
            optimizer_d.zero_grad()
            err_d_total.backward()
            optimizer_d.step()

            loss_g.append(err_g_total.item())
            loss_d.append(err_d_total.item())
        print("epoch:", epoch, " G|D loss is {:.4f}|{:.4f}".format(sum(loss_g) / len(loss_g),
                                                                sum(loss_d) / len(loss_d)))


if __name__ == "__main__":
    train_network()
