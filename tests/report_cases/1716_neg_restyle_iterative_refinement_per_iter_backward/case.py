from argparse import Namespace

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

opts = Namespace(n_iters_per_batch=4, batch_size=4, learning_rate=1e-3, max_steps=12,
                 l2_lambda=1.0, w_norm_lambda=0.01, image_size=16, latent_dim=32)


class FrozenDecoder(nn.Module):
    """Stands in for the pretrained StyleGAN generator (kept frozen in ReStyle)."""

    def __init__(self, latent_dim, size):
        super().__init__()
        self.size = size
        self.fc = nn.Linear(latent_dim, 3 * size * size)

    def forward(self, w):
        return torch.tanh(self.fc(w)).view(-1, 3, self.size, self.size)


class ResidualEncoder(nn.Module):
    def __init__(self, latent_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(6, 16, 3, 2, 1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(16, 32, 3, 2, 1), nn.LeakyReLU(0.2),
                                 nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, latent_dim))

    def forward(self, x):
        return self.net(x)


class ReStyle(nn.Module):
    def __init__(self, opts):
        super().__init__()
        self.encoder = ResidualEncoder(opts.latent_dim)
        self.decoder = FrozenDecoder(opts.latent_dim, opts.image_size)
        for p in self.decoder.parameters():
            p.requires_grad = False
        self.register_buffer('latent_avg', torch.zeros(opts.latent_dim))

    def forward(self, x, latent=None, return_latents=False):
        codes = self.encoder(x)
        if latent is not None:
            codes = codes + latent
        else:
            codes = codes + self.latent_avg
        images = self.decoder(codes)
        if return_latents:
            return images, codes
        return images


class Coach:
    def __init__(self, opts):
        self.opts = opts
        self.net = ReStyle(opts)
        self.optimizer = torch.optim.Adam(self.net.encoder.parameters(), lr=opts.learning_rate)
        with torch.no_grad():
            self.avg_image = self.net.decoder(self.net.latent_avg.unsqueeze(0))[0]
        self.global_step = 0

    def calc_loss(self, y, y_hat, latent):
        loss_l2 = F.mse_loss(y_hat, y)
        loss_w_norm = (latent - self.net.latent_avg).norm(dim=1).mean()
        loss = self.opts.l2_lambda * loss_l2 + self.opts.w_norm_lambda * loss_w_norm
        return loss, {'loss_l2': float(loss_l2), 'loss_w_norm': float(loss_w_norm), 'loss': float(loss)}

    def perform_train_iteration_on_batch(self, x, y):
        y_hat, latent = None, None
        loss_dict, id_logs = None, None
        for iter in range(self.opts.n_iters_per_batch):
            if iter == 0:
                avg_image_for_batch = self.avg_image.unsqueeze(0).repeat(x.shape[0], 1, 1, 1)
                x_input = torch.cat([x, avg_image_for_batch], dim=1)
                y_hat, latent = self.net.forward(x_input, latent=None, return_latents=True)
            else:
                y_hat_clone = y_hat.clone().detach().requires_grad_(True)
                latent_clone = latent.clone().detach().requires_grad_(True)
                x_input = torch.cat([x, y_hat_clone], dim=1)
                y_hat, latent = self.net.forward(x_input, latent=latent_clone, return_latents=True)

            loss, loss_dict = self.calc_loss(y, y_hat, latent)
            loss.backward()
        return y_hat, loss_dict

    def train(self):
        self.net.train()
        while self.global_step < self.opts.max_steps:
            x = torch.rand(self.opts.batch_size, 3, self.opts.image_size, self.opts.image_size) * 2 - 1
            y = x
            self.optimizer.zero_grad()
            y_hats, loss_dict = self.perform_train_iteration_on_batch(x, y)
            self.optimizer.step()
            if self.global_step % 4 == 0:
                print(self.global_step, {k: round(v, 4) for k, v in loss_dict.items()})
            self.global_step += 1


if __name__ == '__main__':
    Coach(opts).train()
