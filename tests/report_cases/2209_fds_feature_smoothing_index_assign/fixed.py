import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)


def calibrate_mean_var(matrix, m1, v1, m2, v2, clip_min=0.1, clip_max=10):
    if torch.sum(v1) < 1e-10:
        return matrix
    if (v1 == 0.).any():
        valid = (v1 != 0.)
        factor = torch.clamp(v2[valid] / v1[valid], clip_min, clip_max)
        matrix[:, valid] = (matrix[:, valid] - m1[valid]) * torch.sqrt(factor) + m2[valid]
        return matrix
    factor = torch.clamp(v2 / v1, clip_min, clip_max)
    return (matrix - m1) * torch.sqrt(factor) + m2


def gaussian_kernel_window(ks=5, sigma=2):
    half_ks = (ks - 1) // 2
    base = np.zeros(ks)
    base[half_ks] = 1.
    x = np.arange(ks) - half_ks
    kernel = np.exp(-x ** 2 / (2 * sigma ** 2))
    kernel = np.convolve(base, kernel / kernel.sum(), mode='same')
    return kernel / kernel.max()


class FDS(nn.Module):
    """Feature distribution smoothing (per-target-bucket running feature statistics)."""

    def __init__(self, feature_dim, bucket_num=20, bucket_start=0, start_update=0, start_smooth=1,
                 kernel='gaussian', ks=5, sigma=2, momentum=0.9):
        super(FDS, self).__init__()
        self.feature_dim = feature_dim
        self.bucket_num = bucket_num
        self.bucket_start = bucket_start
        self.kernel_window = torch.tensor(gaussian_kernel_window(ks, sigma), dtype=torch.float32)
        self.half_ks = (ks - 1) // 2
        self.momentum = momentum
        self.start_update = start_update
        self.start_smooth = start_smooth
        n = bucket_num - bucket_start
        self.register_buffer('epoch', torch.zeros(1).fill_(start_update))
        self.register_buffer('running_mean', torch.zeros(n, feature_dim))
        self.register_buffer('running_var', torch.ones(n, feature_dim))
        self.register_buffer('running_mean_last_epoch', torch.zeros(n, feature_dim))
        self.register_buffer('running_var_last_epoch', torch.ones(n, feature_dim))
        self.register_buffer('smoothed_mean_last_epoch', torch.zeros(n, feature_dim))
        self.register_buffer('smoothed_var_last_epoch', torch.ones(n, feature_dim))

    def _smooth(self, stats):
        padded = F.pad(stats.t().unsqueeze(1), pad=(self.half_ks, self.half_ks), mode='reflect')
        return F.conv1d(padded, weight=self.kernel_window.view(1, 1, -1), padding=0).squeeze(1).t()

    def update_last_epoch_stats(self, epoch):
        if epoch == self.epoch + 1:
            self.epoch += 1
            self.running_mean_last_epoch = self.running_mean
            self.running_var_last_epoch = self.running_var
            self.smoothed_mean_last_epoch = self._smooth(self.running_mean_last_epoch)
            self.smoothed_var_last_epoch = self._smooth(self.running_var_last_epoch)

    def update_running_stats(self, features, labels, epoch):
        if epoch < self.epoch:
            return
        for label in torch.unique(labels):
            if label > self.bucket_num - 1 or label < self.bucket_start:
                continue
            curr = features[labels == label]
            if curr.size(0) < 2:
                continue
            i = int(label - self.bucket_start)
            self.running_mean[i] = self.momentum * self.running_mean[i] + (1 - self.momentum) * curr.mean(0)
            self.running_var[i] = self.momentum * self.running_var[i] + (1 - self.momentum) * curr.var(0)

    def smooth(self, features, labels, epoch):
        if epoch < self.start_smooth:
            return features
        labels = labels.squeeze(1)
        for label in torch.unique(labels):
            if label > self.bucket_num - 1 or label < self.bucket_start:
                continue
            i = int(label - self.bucket_start)
            # out-of-place: the encoder's last ReLU saved `features` for its backward
            mask = (labels == label).unsqueeze(1).expand_as(features)
            features = torch.masked_scatter(features, mask, calibrate_mean_var(
                features[labels == label],
                self.running_mean_last_epoch[i], self.running_var_last_epoch[i],
                self.smoothed_mean_last_epoch[i], self.smoothed_var_last_epoch[i]))
        return features


class TabularRegressor(nn.Module):
    """MLP encoder -> (FDS during training) -> linear regressor."""

    def __init__(self, in_dim, feature_dim=32, fds=True, bucket_num=20, start_smooth=1):
        super(TabularRegressor, self).__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, feature_dim), nn.ReLU())
        self.fds = fds
        if fds:
            self.FDS = FDS(feature_dim, bucket_num=bucket_num, start_smooth=start_smooth)
        self.dropout = nn.Dropout(0.1)
        self.linear = nn.Linear(feature_dim, 1)

    def forward(self, x, targets=None, epoch=None):
        encoding = self.encoder(x)
        encoding_s = encoding
        if self.training and self.fds:
            if epoch >= self.FDS.start_smooth:
                encoding_s = self.FDS.smooth(encoding_s, targets, epoch)
        x = self.dropout(encoding_s)
        return self.linear(x), encoding


def weighted_mse_loss(inputs, targets, weights=None):
    loss = (inputs - targets) ** 2
    if weights is not None:
        loss *= weights.expand_as(loss)
    return loss.mean()


def make_imbalanced_data(n=512, in_dim=10):
    # long-tailed integer targets in [0, 20): most samples have small labels
    y = np.minimum(np.random.exponential(4.0, size=n), 19.9).astype(np.float32)
    w = np.random.randn(in_dim).astype(np.float32)
    x = np.random.randn(n, in_dim).astype(np.float32) + y[:, None] * w[None] / 10.0
    return torch.from_numpy(x), torch.from_numpy(y).unsqueeze(1)


def train(epochs=3, batch_size=64):
    x, y = make_imbalanced_data()
    model = TabularRegressor(in_dim=x.size(1))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(x.size(0))
        encodings, labels = [], []
        for start in range(0, x.size(0), batch_size):
            idx = perm[start:start + batch_size]
            inputs, targets = x[idx], y[idx]
            bucket = targets.long()
            outputs, feature = model(inputs, bucket, epoch)
            loss = weighted_mse_loss(outputs, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            encodings.append(feature.detach())
            labels.append(bucket.squeeze(1))
        # update the FDS statistics with the features of this epoch
        model.FDS.update_last_epoch_stats(epoch)
        model.FDS.update_running_stats(torch.cat(encodings), torch.cat(labels), epoch)
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == '__main__':
    train()
