"""Small fully-connected VAE on synthetic binary 'images' (flattened 8x8)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, nc=64, ngf=32, latent_variable_size=4):
        super(VAE, self).__init__()
        self.e1 = nn.Linear(nc, ngf)
        self.bn1 = nn.BatchNorm1d(ngf)
        self.fc1 = nn.Linear(ngf, latent_variable_size)
        self.fc2 = nn.Linear(ngf, latent_variable_size)
        self.d1 = nn.Linear(latent_variable_size, ngf)
        self.d2 = nn.Linear(ngf, nc)
        self.leakyrelu = nn.LeakyReLU(0.2)
        self.relu = nn.ReLU()
        self.sigmoid = nn.Sigmoid()

    def encode(self, x):
        h1 = self.leakyrelu(self.bn1(self.e1(x)))
        return self.fc1(h1), self.fc2(h1)

    def reparametrize(self, mu, logvar):
        std = logvar.mul(0.5).exp_()
        eps = torch.randn_like(std)
        return eps.mul(std).add_(mu)

    def decode(self, z):
        h1 = self.relu(self.d1(z))
        return self.sigmoid(self.d2(h1))

    def forward(self, x):
        mu, logvar = self.encode(x)
        z = self.reparametrize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    bce = F.binary_cross_entropy(recon_x, x, reduction="sum")
    # KLD = 0.5 * sum(1 + log(sigma^2) - mu^2 - sigma^2)
    KLD_element = mu.pow(2).add_(logvar.exp()).mul_(-1).add_(1).add_(logvar)
    KLD = torch.sum(KLD_element).mul_(-0.5)
    return bce + KLD


def train(model, optimizer, epochs=2, n_batches=3, batch_size=16):
    for epoch in range(epochs):
        model.train()
        train_loss = 0.0
        for _ in range(n_batches):
            data = (torch.rand(batch_size, 64) > 0.5).float()
            optimizer.zero_grad()
            recon_batch, mu, logvar = model(data)
            loss = loss_function(recon_batch, data, mu, logvar)
            loss.backward()
            train_loss += loss.item()
            optimizer.step()
        print(f"====> Epoch: {epoch} Average loss: {train_loss / (n_batches * batch_size):.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = VAE()
    train(model, torch.optim.Adam(model.parameters(), lr=1e-3))
