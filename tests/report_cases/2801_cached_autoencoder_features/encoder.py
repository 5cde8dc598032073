import torch
import torch.nn as nn


class AutoEncoder(nn.Module):
    def __init__(self, n_in=20, n_code=6):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_in, 16), nn.ReLU(), nn.Linear(16, n_code))
        self.decoder = nn.Sequential(nn.Linear(n_code, 16), nn.ReLU(), nn.Linear(16, n_in))

    def forward(self, x):
        code = self.encoder(x)
        recon = self.decoder(code)
        loss = ((recon - x) ** 2).mean()
        return code, loss


def pretrain(autoencoder, X, epochs=5, lr=1e-2):
    opt = torch.optim.Adam(autoencoder.parameters(), lr=lr)
    for _ in range(epochs):
        opt.zero_grad()
        _, loss = autoencoder(X)
        loss.backward()
        opt.step()
    return loss.item()


def encode_dataset(autoencoder, *splits):
    """Encode whole splits once so the classifier trains on codes."""
    autoencoder.eval()
    encoded = []
    for X in splits:
        code, _ = autoencoder(X)
        encoded.append(code)
    return encoded
