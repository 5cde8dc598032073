"""ReStyle (pSp) encoder training on top of a converted StyleGAN2 generator: the encoder iteratively
refines W+ codes relative to the average latent; the generator checkpoint has no stored latent_avg,
so it is estimated from the mapping network."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
STYLE_DIM, N_STYLES = 16, 4


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.style = nn.Sequential(nn.Linear(STYLE_DIM, STYLE_DIM), nn.LeakyReLU(0.2), nn.Linear(STYLE_DIM, STYLE_DIM))
        self.synthesis = nn.ModuleList([nn.Linear(STYLE_DIM, 3 * 8 * 8) for _ in range(N_STYLES)])

    def mean_latent(self, n_latent):
        latent_in = torch.randn(n_latent, STYLE_DIM)
        return self.style(latent_in).mean(0, keepdim=True)

    def forward(self, codes):                                # codes: (B, N_STYLES, STYLE_DIM)
        img = sum(layer(codes[:, i]) for i, layer in enumerate(self.synthesis))
        return torch.tanh(img).view(-1, 3, 8, 8)


class ResidualEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(6, 16, 3, 2, 1), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(16 * 16, N_STYLES * STYLE_DIM))

    def forward(self, x):
        return self.net(x).view(-1, N_STYLES, STYLE_DIM)


class pSp(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = ResidualEncoder()
        self.decoder = Generator()          # converted StyleGAN2 weights (no 'latent_avg' in the ckpt)
        self.latent_avg = self.decoder.mean_latent(int(1e3))[0]

    def forward(self, x, latent=None):
        codes = self.encoder(x)
        codes = codes + (latent if latent is not None else self.latent_avg.repeat(x.shape[0], N_STYLES, 1))
        return self.decoder(codes), codes


class Coach:
    def __init__(self, n_iters_per_batch=3):
        self.net = pSp()
        self.optimizer = torch.optim.Adam(self.net.encoder.parameters(), lr=1e-4)
        self.n_iters_per_batch = n_iters_per_batch

    def perform_train_iteration_on_batch(self, x, y):
        avg_image = self.net.decoder(self.net.latent_avg.repeat(x.shape[0], N_STYLES, 1)).detach()
        y_hat, latent = avg_image, None
        for it in range(self.n_iters_per_batch):
            x_input = torch.cat([x, y_hat], dim=1)
            self.optimizer.zero_grad()
            y_hat, latent = self.net(x_input, latent=latent)
            loss = F.mse_loss(y_hat, y) + 0.1 * F.l1_loss(y_hat, y)
            loss.backward()
            self.optimizer.step()
            y_hat, latent = y_hat.detach(), latent.detach()
        return loss

    def train(self, steps=2):
        for step in range(steps):
            x = torch.rand(4, 3, 8, 8) * 2 - 1
            loss = self.perform_train_iteration_on_batch(x, x)
            print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    Coach().train()
