import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
JITTER = 1e-1


def kronecker(A, B):
    AB = torch.einsum("ab,cd->acbd", A, B)
    return AB.reshape(A.size(0) * B.size(0), A.size(1) * B.size(1))


class SE_kernel(nn.Module):
    def __init__(self, length_scale=1.0):
        super().__init__()
        self.length_scale = torch.exp(nn.Parameter(torch.log(torch.tensor(length_scale))))

    def forward(self, X, X2):
        X = X / self.length_scale
        X2 = X2 / self.length_scale
        X_norm2 = torch.sum(X * X, dim=1).view(-1, 1)
        X2_norm2 = torch.sum(X2 * X2, dim=1).view(-1, 1)
        K = -2.0 * X @ X2.t() + X_norm2 + X2_norm2.t()
        return torch.exp(-K)


class STGP(nn.Module):
    def __init__(self, latlong_length_scale=3.0, elevation_length_scale=30.0, time_length_scale=0.25,
                 noise_variance=0.1, signal_variance=1.0):
        super().__init__()
        self.log_noise_variance = nn.Parameter(torch.log(torch.tensor(noise_variance)))
        self.log_signal_variance = nn.Parameter(torch.log(torch.tensor(signal_variance)))
        self.latlong_kernel = SE_kernel(latlong_length_scale)
        self.elevation_kernel = SE_kernel(elevation_length_scale)
        self.temporal_kernel = SE_kernel(time_length_scale)

    def negative_log_likelihood(self, space, time, y):
        latlong_K = self.latlong_kernel(space[:, 0:2], space[:, 0:2])
        elevation_K = self.elevation_kernel(space[:, 2:3], space[:, 2:3])
        spatial_K = self.log_signal_variance.exp() * latlong_K * elevation_K + torch.eye(space.size(0)) * JITTER
        temporal_K = self.temporal_kernel(time, time) + torch.eye(time.size(0)) * JITTER

        eig_s, vec_s = torch.linalg.eigh(spatial_K)
        eig_t, vec_t = torch.linalg.eigh(temporal_K)
        vec_st = kronecker(vec_t, vec_s)
        eig_st = kronecker(eig_t.view(-1, 1), eig_s.view(-1, 1)).view(-1)
        eig_noise = eig_st + torch.exp(self.log_noise_variance)

        y_vec = y.transpose(-2, -1).reshape(-1, 1)
        proj = vec_st.t() @ y_vec
        nll = 0.5 * eig_noise.log().sum()
        nll = nll + 0.5 * (proj.pow(2).view(-1) / eig_noise).sum()
        nll = nll + 0.5 * y_vec.numel() * math.log(2 * math.pi)
        return nll


def train_stgp(model, space, time, y, lr=0.05, epochs=6):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for i in range(epochs):
        optimizer.zero_grad()
        loss = model.negative_log_likelihood(space, time, y)
        loss.backward()
        optimizer.step()
        print("Epoch: {}, Loss: {:.4f}".format(i, loss.item()))


def make_data(n_sites=20, n_times=8):
    latlong = torch.rand(n_sites, 2) * 10
    elevation = torch.rand(n_sites, 1) * 100
    space = torch.cat([latlong, elevation], dim=1)
    time = torch.linspace(0, 1, n_times).view(-1, 1)
    signal = torch.sin(latlong[:, :1]) + 0.01 * elevation
    y = signal + torch.cos(2 * math.pi * time.t()) + 0.1 * torch.randn(n_sites, n_times)
    return space, time, y


if __name__ == "__main__":
    space, time, pm25 = make_data()
    model = STGP()
    train_stgp(model, space, time, pm25)
