"""DAGMM (deep autoencoding Gaussian mixture model) for unsupervised anomaly
detection on KDDCup-like tabular data (synthetic here)."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class DAGMM(nn.Module):
    def __init__(self, n_features, n_gmm=4, z_dim=1):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(n_features, 60), nn.Linear(60, 30), nn.Linear(30, 10)
        self.fc4 = nn.Linear(10, z_dim)
        self.fc5, self.fc6, self.fc7 = nn.Linear(z_dim, 10), nn.Linear(10, 30), nn.Linear(30, 60)
        self.fc8 = nn.Linear(60, n_features)
        self.fc9, self.fc10 = nn.Linear(z_dim + 2, 10), nn.Linear(10, n_gmm)

    def encode(self, x):
        h = torch.tanh(self.fc1(x))
        h = torch.tanh(self.fc2(h))
        h = torch.tanh(self.fc3(h))
        return self.fc4(h)

    def decode(self, x):
        h = torch.tanh(self.fc5(x))
        h = torch.tanh(self.fc6(h))
        h = torch.tanh(self.fc7(h))
        return self.fc8(h)

    def estimate(self, z):
        h = F.dropout(torch.tanh(self.fc9(z)), 0.5, training=self.training)
        return F.softmax(self.fc10(h), dim=1)

    def compute_reconstruction(self, x, x_hat):
        relative_euclidean_distance = (x - x_hat).norm(2, dim=1) / x.norm(2, dim=1)
        cosine_similarity = F.cosine_similarity(x, x_hat, dim=1)
        return relative_euclidean_distance, cosine_similarity

    def forward(self, x):
        z_c = self.encode(x)
        x_hat = self.decode(z_c)
        rec_1, rec_2 = self.compute_reconstruction(x, x_hat)
        z = torch.cat([z_c, rec_1.unsqueeze(-1), rec_2.unsqueeze(-1)], dim=1)
        gamma = self.estimate(z)
        return z_c, x_hat, z, gamma


class ComputeLoss:
    def __init__(self, model, lambda_energy, lambda_cov, n_gmm):
        self.model, self.lambda_energy, self.lambda_cov, self.n_gmm = model, lambda_energy, lambda_cov, n_gmm

    def forward(self, x, x_hat, z, gamma):
        """Computing the loss function for DAGMM."""
        reconst_loss = F.mse_loss(x, x_hat, reduction="mean")
        sample_energy, cov_diag = self.compute_energy(z, gamma)
        loss = reconst_loss + self.lambda_energy * sample_energy + self.lambda_cov * cov_diag
        return loss

    def compute_energy(self, z, gamma, eps=1e-12):
        phi, mu, cov = self.compute_params(z, gamma)
        z_mu = z.unsqueeze(1) - mu.unsqueeze(0)
        cov_inverse, det_cov, cov_diag = [], [], 0
        for k in range(self.n_gmm):
            cov_k = cov[k] + torch.eye(cov[k].size(-1)) * 1e-6
            cov_inverse.append(torch.inverse(cov_k).unsqueeze(0))
            det_cov.append(torch.linalg.cholesky(cov_k * (2 * np.pi)).diag().prod().unsqueeze(0))
            cov_diag = cov_diag + torch.sum(1 / cov_k.diag())
        cov_inverse, det_cov = torch.cat(cov_inverse, dim=0), torch.cat(det_cov)
        E_z = -0.5 * torch.sum(torch.sum(z_mu.unsqueeze(-1) * cov_inverse.unsqueeze(0), dim=-2) * z_mu, dim=-1)
        E_z = -torch.log(torch.sum(phi.unsqueeze(0) * torch.exp(E_z) / torch.sqrt(det_cov).unsqueeze(0), dim=1) + eps)
        return torch.mean(E_z), cov_diag

    def compute_params(self, z, gamma):
        phi = torch.sum(gamma, dim=0) / gamma.size(0)
        mu = torch.sum(z.unsqueeze(1) * gamma.unsqueeze(-1), dim=0) / torch.sum(gamma, dim=0).unsqueeze(-1)
        z_mu = z.unsqueeze(1) - mu.unsqueeze(0)
        cov = torch.sum(gamma.unsqueeze(-1).unsqueeze(-1) * z_mu.unsqueeze(-1) * z_mu.unsqueeze(-2), dim=0)
        cov = cov / torch.sum(gamma, dim=0).unsqueeze(-1).unsqueeze(-1)
        return phi, mu, cov


class TrainerDAGMM:
    def __init__(self, args, train_loader):
        self.args, self.train_loader = args, train_loader

    def train(self):
        self.model = DAGMM(self.args.n_features, self.args.n_gmm, self.args.latent_dim)
        optimizer = torch.optim.Adam(self.model.parameters(), lr=self.args.lr)
        self.compute = ComputeLoss(self.model, self.args.lambda_energy, self.args.lambda_cov, self.args.n_gmm)
        self.model.train()
        for epoch in range(self.args.num_epochs):
            total_loss = 0
            for x in self.train_loader:
                optimizer.zero_grad()
                _, x_hat, z, gamma = self.model(x)
                loss = self.compute.forward(x, x_hat, z, gamma)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 5)
                optimizer.step()
                total_loss += loss.item()
            print(f"Training DAGMM... Epoch: {epoch}, Loss: {total_loss / len(self.train_loader):.3f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_epochs", type=int, default=3)
    parser.add_argument("--n_features", type=int, default=20)
    parser.add_argument("--n_gmm", type=int, default=4)
    parser.add_argument("--latent_dim", type=int, default=1)
    parser.add_argument("--lambda_energy", type=float, default=0.1)
    parser.add_argument("--lambda_cov", type=float, default=0.005)
    parser.add_argument("--lr", type=float, default=1e-4)
    args = parser.parse_args()
    torch.manual_seed(0)
    normal = torch.randn(1024, args.n_features) @ torch.randn(args.n_features, args.n_features) * 0.3
    train_loader = list(normal.split(128))
    TrainerDAGMM(args, train_loader).train()


if __name__ == "__main__":
    main()
