import torch
import torch.nn as nn
import torch.optim as optim

opt = dict(nz=16, ngf=16, ndf=16, nc=1, batchSize=32, niter=2, lr=2e-4, beta1=0.5, n_batches=10)
torch.manual_seed(1)


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        m.weight.data.normal_(0.0, 0.02)
    elif classname.find('BatchNorm') != -1:
        m.weight.data.normal_(1.0, 0.02)
        m.bias.data.fill_(0)


class _netG(nn.Module):
    def __init__(self, nz, ngf, nc):
        super(_netG, self).__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False),
            nn.Tanh(),
        )

    def forward(self, input):
        return self.main(input)


class _netD(nn.Module):
    def __init__(self, nc, ndf):
        super(_netD, self).__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False),
            nn.Sigmoid(),
        )

    def forward(self, input):
        return self.main(input).view(-1, 1).squeeze(1)


def fake_dataloader(n_batches, batch_size, nc):
    for _ in range(n_batches):
        blobs = torch.zeros(batch_size, nc, 16, 16)
        cx, cy = torch.randint(4, 12, (2,))
        blobs[:, :, cy - 3:cy + 3, cx - 3:cx + 3] = 1.0
        yield blobs * 2 - 1 + 0.05 * torch.randn_like(blobs), None


netG = _netG(opt['nz'], opt['ngf'], opt['nc'])
netG.apply(weights_init)
netD = _netD(opt['nc'], opt['ndf'])
netD.apply(weights_init)

criterion = nn.BCELoss()
fixed_noise = torch.randn(opt['batchSize'], opt['nz'], 1, 1)
real_label, fake_label = 1.0, 0.0

optimizerD = optim.Adam(netD.parameters(), lr=opt['lr'], betas=(opt['beta1'], 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=opt['lr'], betas=(opt['beta1'], 0.999))

for epoch in range(opt['niter']):
    for i, data in enumerate(fake_dataloader(opt['n_batches'], opt['batchSize'], opt['nc'])):
        ############################
        # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
        ###########################
        netD.zero_grad()
        real_cpu, _ = data
        batch_size = real_cpu.size(0)
        label = torch.full((batch_size,), real_label)

        output = netD(real_cpu)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()

        noise = torch.randn(batch_size, opt['nz'], 1, 1)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach())
        errD_fake = criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake
        optimizerD.step()

        ############################
        # (2) Update G network: maximize log(D(G(z)))
        ###########################
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake)
        errG = criterion(output, label)
        errG.backward()
        D_G_z2 = output.mean().item()
        optimizerG.step()

        print('[%d/%d][%d/%d] Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f / %.4f'
              % (epoch, opt['niter'], i, opt['n_batches'],
                 errD.item(), errG.item(), D_x, D_G_z1, D_G_z2))
