"""Probabilistic autoencoder: train an AE, then fit a normalizing flow on its latent codes."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from flows import Flow

torch.manual_seed(0)
IN_DIM = 64
LATENT = 8


class AutoEncoder(nn.Module):
    def __init__(self, in_dim=IN_DIM, latent=LATENT):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 128), nn.ReLU(), nn.Linear(128, latent))
        self.decoder = nn.Sequential(nn.Linear(latent, 128), nn.ReLU(), nn.Linear(128, in_dim))

    def forward(self, x):
        z = self.encoder(x)
        return self.decoder(z), z


def make_data(n=256, dim=IN_DIM):
    basis = torch.randn(4, dim)
    coeffs = torch.randn(n, 4)
    return torch.tanh(coeffs @ basis) + 0.05 * torch.randn(n, dim)


def train_autoencoder(model, data, epochs=3, batch_size=32):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        total = 0.0
        for i in range(0, len(data), batch_size):
            x = data[i:i + batch_size]
            recon, _ = model(x)
            loss = F.mse_loss(recon, x)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"ae epoch {epoch}: recon {total:.4f}")


def main():
    data = make_data()
    ae = AutoEncoder()
    train_autoencoder(ae, data)

    # stage 2: density model on the AE latent space
    with torch.no_grad():
        latents = ae.encoder(data)
    flow = Flow(LATENT)
    flow.fit(latents, n_epochs=3, lr=1e-3, batch_size=32)

    with torch.no_grad():
        print("mean latent log-likelihood:", flow.log_prob(latents).mean().item())


if __name__ == "__main__":
    main()
