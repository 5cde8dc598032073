"""CycleGAN (PyTorch-GAN layout) on small synthetic image domains, with the
image history ReplayBuffer feeding the discriminators."""
import argparse
import itertools
import random

import torch
import torch.nn as nn


class ReplayBuffer:
    def __init__(self, max_size=50):
        self.max_size, self.data = max_size, []

    def push_and_pop(self, data):
        to_return = []
        for element in data.data:
            element = torch.unsqueeze(element, 0)
            if len(self.data) < self.max_size:
                self.data.append(element)
                to_return.append(element)
            elif random.uniform(0, 1) > 0.5:
                i = random.randint(0, self.max_size - 1)
                to_return.append(self.data[i].clone())
                self.data[i] = element
            else:
                to_return.append(element)
        return torch.cat(to_return)


class GeneratorResNet(nn.Module):
    def __init__(self, ch=3, f=16):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(ch, f, 3, 1, 1), nn.InstanceNorm2d(f), nn.ReLU(inplace=True),
                                   nn.Conv2d(f, f, 3, 1, 1), nn.InstanceNorm2d(f), nn.ReLU(inplace=True),
                                   nn.Conv2d(f, ch, 3, 1, 1), nn.Tanh())

    def forward(self, x):
        return self.model(x)


class Discriminator(nn.Module):
    def __init__(self, ch=3, f=16):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(ch, f, 4, 2, 1), nn.LeakyReLU(0.2, inplace=True),
                                   nn.Conv2d(f, 1, 3, 1, 1))

    def forward(self, img):
        return self.model(img)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n_iters", type=int, default=8)
    parser.add_argument("--batch_size", type=int, default=4)
    parser.add_argument("--lambda_cyc", type=float, default=10.0)
    parser.add_argument("--lambda_id", type=float, default=5.0)
    args = parser.parse_args()
    torch.manual_seed(0)
    random.seed(0)

    G_AB, G_BA, D_A, D_B = GeneratorResNet(), GeneratorResNet(), Discriminator(), Discriminator()
    criterion_GAN, criterion_cycle, criterion_identity = nn.MSELoss(), nn.L1Loss(), nn.L1Loss()
    optimizer_G = torch.optim.Adam(itertools.chain(G_AB.parameters(), G_BA.parameters()), lr=2e-4, betas=(0.5, 0.999))
    optimizer_D_A = torch.optim.Adam(D_A.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optimizer_D_B = torch.optim.Adam(D_B.parameters(), lr=2e-4, betas=(0.5, 0.999))
    fake_A_buffer, fake_B_buffer = ReplayBuffer(), ReplayBuffer()

    for i in range(args.n_iters):
        real_A = torch.rand(args.batch_size, 3, 16, 16) * 2 - 1
        real_B = torch.tanh(torch.randn(args.batch_size, 3, 16, 16))
        valid = torch.ones(args.batch_size, 1, 8, 8)
        fake = torch.zeros(args.batch_size, 1, 8, 8)

        # ------------------ Train Generators ------------------
        G_AB.train(); G_BA.train()
        optimizer_G.zero_grad()
        loss_identity = (criterion_identity(G_BA(real_A), real_A) + criterion_identity(G_AB(real_B), real_B)) / 2
        fake_B = G_AB(real_A)
        fake_A = G_BA(real_B)
        loss_GAN = (criterion_GAN(D_B(fake_B), valid) + criterion_GAN(D_A(fake_A), valid)) / 2
        loss_cycle = (criterion_cycle(G_BA(fake_B), real_A) + criterion_cycle(G_AB(fake_A), real_B)) / 2
        loss_G = loss_GAN + args.lambda_cyc * loss_cycle + args.lambda_id * loss_identity
        loss_G.backward()
        optimizer_G.step()

        # ------------------ Train Discriminator A ------------------
        optimizer_D_A.zero_grad()
        loss_real = criterion_GAN(D_A(real_A), valid)
        fake_A_ = fake_A_buffer.push_and_pop(fake_A.detach())
        loss_fake = criterion_GAN(D_A(fake_A_), fake)
        loss_D_A = (loss_real + loss_fake) / 2
        loss_D_A.backward()
        optimizer_D_A.step()

        # ------------------ Train Discriminator B ------------------
        optimizer_D_B.zero_grad()
        loss_real = criterion_GAN(D_B(real_B), valid)
        fake_B_ = fake_B_buffer.push_and_pop(fake_B.detach())
        loss_fake = criterion_GAN(D_B(fake_B_), fake)
        loss_D_B = (loss_real + loss_fake) / 2
        loss_D_B.backward()
        optimizer_D_B.step()

        print(f"[{i}] D {((loss_D_A + loss_D_B) / 2).item():.3f} G {loss_G.item():.3f} "
              f"adv {loss_GAN.item():.3f} cycle {loss_cycle.item():.3f}")


if __name__ == "__main__":
    main()
