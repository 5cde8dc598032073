from functools import partial

import torch
import torch.nn as nn
import torch.optim as optim

nz, nx = 4, 8


class MLP_G(nn.Module):
    def __init__(self, ngh=32):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(nz, ngh), nn.ReLU(True), nn.Linear(ngh, ngh), nn.ReLU(True), nn.Linear(ngh, nx))

    def forward(self, input):
        return self.main(input.view(input.size(0), -1))


class MLP_D(nn.Module):
    def __init__(self, ndh=32):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(nx, ndh), nn.ReLU(True), nn.Linear(ndh, ndh), nn.ReLU(True), nn.Linear(ndh, 1))

    def forward(self, input):
        return self.main(input).mean(0).view(1)


def clip_weights(net, clamp_lower, clamp_upper):
    for p in net.parameters():
        p.data.clamp_(clamp_lower, clamp_upper)


def data_iter(n_batches, batch_size=16):
    for _ in range(n_batches):
        yield torch.randn(batch_size, nx) * 0.5 + 1.0


netG, netD = MLP_G(), MLP_D()
make_rms = partial(optim.RMSprop, lr=5e-5)
optimizerD = make_rms(netD.parameters())
optimizerG = make_rms(netG.parameters())
clip = partial(clip_weights, clamp_lower=-0.01, clamp_upper=0.01)

one = torch.FloatTensor([1])
mone = one * -1
batch_size, Diters, niter = 16, 3, 3
torch.manual_seed(0)

gen_iterations = 0
for epoch in range(niter):
    data = data_iter(12, batch_size)
    i = 0
    while i < 12:
        ############################
        # (1) Update D network
        ###########################
        for p in netD.parameters():
            p.requires_grad = True

        j = 0
        while j < Diters and i < 12:
            j += 1
            # clamp parameters to a cube
            clip(netD)

            real = next(data)
            i += 1
            netD.zero_grad()
            errD_real = netD(real)
            errD_real.backward(one)

            noise = torch.randn(batch_size, nz)
            with torch.no_grad():
                fake = netG(noise)
            errD_fake = netD(fake)
            errD_fake.backward(mone)
            errD = errD_real - errD_fake
            optimizerD.step()

        ############################
        # (2) Update G network
        ###########################
        for p in netD.parameters():
            p.requires_grad = False
        netG.zero_grad()
        noise = torch.randn(batch_size, nz)
        fake = netG(noise)
        errG = netD(fake)
        errG.backward(one)
        optimizerG.step()
        gen_iterations += 1

        print(f"[{epoch}/{niter}][{i}] Loss_D: {errD.item():.6f} Loss_G: {errG.item():.6f} "
              f"Loss_D_real: {errD_real.item():.6f} Loss_D_fake {errD_fake.item():.6f}")
