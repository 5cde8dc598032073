import numpy as np
import torch
import torch.autograd as autograd
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)

opt = {"latent_dim": 8, "img_size": 16, "lr": 2e-4, "b1": 0.5, "b2": 0.999, "n_critic": 3, "batch_size": 8}
lambda_gp = 10


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(opt["latent_dim"], 32), nn.LeakyReLU(0.2),
                                   nn.Linear(32, opt["img_size"]), nn.Tanh())

    def forward(self, z):
        return self.model(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(opt["img_size"], 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, img):
        return self.model(img)


def compute_gradient_penalty(D, real_samples, fake_samples):
    alpha = torch.rand(real_samples.size(0), 1)
    interpolates = (alpha * real_samples + ((1 - alpha) * fake_samples)).requires_grad_(True)
    d_interpolates = D(interpolates)
    fake = torch.ones(real_samples.shape[0], 1)
    gradients = autograd.grad(outputs=d_interpolates, inputs=interpolates, grad_outputs=fake,
                              create_graph=True, retain_graph=True, only_inputs=True)[0]
    gradients = gradients.view(gradients.size(0), -1)
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean()


generator, discriminator = Generator(), Discriminator()
optimizer_G = torch.optim.Adam(generator.parameters(), lr=opt["lr"], betas=(opt["b1"], opt["b2"]))
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=opt["lr"], betas=(opt["b1"], opt["b2"]))
dataloader = [torch.rand(opt["batch_size"], opt["img_size"]) * 2 - 1 for _ in range(6)]

for epoch in range(2):
    for i, imgs in enumerate(dataloader):
        real_imgs = imgs
        optimizer_D.zero_grad()
        z = torch.Tensor(np.random.normal(0, 1, (imgs.shape[0], opt["latent_dim"])))
        fake_imgs = generator(z)
        real_validity = discriminator(real_imgs)
        fake_validity = discriminator(fake_imgs)
        gradient_penalty = compute_gradient_penalty(discriminator, real_imgs.data, fake_imgs.data)
        d_loss = -torch.mean(real_validity) + torch.mean(fake_validity) + lambda_gp * gradient_penalty
        d_loss.backward()
        optimizer_D.step()
        optimizer_G.zero_grad()
        if i % opt["n_critic"] == 0:
            fake_imgs = generator(z)
            fake_validity = discriminator(fake_imgs)
            g_loss = -torch.mean(fake_validity)
            g_loss.backward()
            optimizer_G.step()
            print(epoch, i, round(d_loss.item(), 4), round(g_loss.item(), 4))
