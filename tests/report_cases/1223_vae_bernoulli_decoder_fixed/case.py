import logging

import torch
from torch import nn

logging.basicConfig(level=logging.INFO)
logger = logging.getLogger(__name__)

HPARAMS = {"x_dim": 196, "h_dim": 64, "z_dim": 8, "batch_size": 16, "epochs": 2, "steps_per_epoch": 3,
           "lr": 1e-3, "beta": 1.0, "eps": 1e-6}


class Encoder(nn.Module):
    def __init__(self, x_dim, h_dim, z_dim):
        super().__init__()
        self.fc = nn.Linear(x_dim, h_dim)
        self.fc_mu = nn.Linear(h_dim, z_dim)
        self.fc_logvar = nn.Linear(h_dim, z_dim)

    def forward(self, x):
        h = torch.relu(self.fc(x))
        return self.fc_mu(h), self.fc_logvar(h)


class Decoder(nn.Module):
    def __init__(self, z_dim, h_dim, x_dim):
        super().__init__()
        self.fc1 = nn.Linear(z_dim, h_dim)
        self.fc2 = nn.Linear(h_dim, x_dim)

    def forward(self, z):
        return torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))


class VAE(nn.Module):
    def __init__(self, x_dim, h_dim, z_dim):
        super().__init__()
        self.encoder = Encoder(x_dim, h_dim, z_dim)
        self.decoder = Decoder(z_dim, h_dim, x_dim)

    def forward(self, x):
        mu, logvar = self.encoder(x)
        z = mu + torch.exp(0.5 * logvar) * torch.randn_like(mu)
        return self.decoder(z), mu, logvar


def elbo_loss(x, probs, mu, logvar, beta, eps):
    probs = probs.clamp(eps, 1.0 - eps)
    log_lik = x * torch.log(probs) + (1.0 - x) * torch.log(1.0 - probs)
    rec = -log_lik.sum(dim=1).mean()
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1).mean()
    return rec + beta * kld, rec, kld


def main(hp):
    torch.manual_seed(42)
    data = (torch.rand(256, hp["x_dim"]) > 0.7).float()
    model = VAE(hp["x_dim"], hp["h_dim"], hp["z_dim"])
    optimizer = torch.optim.Adam(model.parameters(), lr=hp["lr"])
    for epoch in range(hp["epochs"]):
        model.train()
        running = {"loss": 0.0, "rec": 0.0, "kld": 0.0}
        for step in range(hp["steps_per_epoch"]):
            idx = torch.randint(0, data.size(0), (hp["batch_size"],))
            x = data[idx]
            probs, mu, logvar = model(x)
            loss, rec, kld = elbo_loss(x, probs, mu, logvar, hp["beta"], hp["eps"])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running["loss"] += loss.item()
            running["rec"] += rec.item()
            running["kld"] += kld.item()
        logger.info("epoch %d %s", epoch, {k: round(v / hp["steps_per_epoch"], 3) for k, v in running.items()})


if __name__ == "__main__":
    main(HPARAMS)
