import torch
import torch.nn as nn

torch.manual_seed(0)

args = {"n_z": 4, "sigma": 1.0, "batch_size": 16, "lr": 1e-3, "epochs": 2, "lambda": 10.0}


class Encoder(nn.Module):
    def __init__(self, n_z):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
        self.fc = nn.Linear(32, n_z)

    def forward(self, x):
        return self.fc(self.main(x))


class Decoder(nn.Module):
    def __init__(self, n_z):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(n_z, 64), nn.ReLU(), nn.Linear(64, 32), nn.Sigmoid())

    def forward(self, z):
        return self.main(z)


def imq_kernel(X, Y, h_dim):
    batch_size = X.size(0)
    norms_x = X.pow(2).sum(1, keepdim=True)
    dists_x = norms_x + norms_x.t() - 2 * X @ X.t()
    norms_y = Y.pow(2).sum(1, keepdim=True)
    dists_y = norms_y + norms_y.t() - 2 * Y @ Y.t()
    dists_c = norms_x + norms_y.t() - 2 * X @ Y.t()
    stats = 0
    for scale in [0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0]:
        C = 2 * h_dim * 1.0 * scale
        res1 = C / (C + dists_x) + C / (C + dists_y)
        res1 = (1 - torch.eye(batch_size)) * res1
        res1 = res1.sum() / (batch_size - 1)
        res2 = C / (C + dists_c)
        res2 = res2.sum() * 2.0 / batch_size
        stats += res1 - res2
    return stats


encoder, decoder = Encoder(args["n_z"]), Decoder(args["n_z"])
criterion = nn.MSELoss()
enc_optim = torch.optim.Adam(encoder.parameters(), lr=args["lr"])
dec_optim = torch.optim.Adam(decoder.parameters(), lr=args["lr"])
train_loader = [torch.rand(args["batch_size"], 32) for _ in range(4)]

for epoch in range(args["epochs"]):
    for step, images in enumerate(train_loader):
        enc_optim.zero_grad()
        dec_optim.zero_grad()
        z_real = encoder(images)
        x_recon = decoder(z_real)
        recon_loss = criterion(x_recon, images)

        z_fake = torch.randn(images.size(0), args["n_z"]) * args["sigma"]
        mmd_loss = imq_kernel(z_real, z_fake, h_dim=args["n_z"]) * args["lambda"] / images.size(0)
        total_loss = recon_loss + mmd_loss.mean()
        total_loss.backward()

        enc_optim.step()
        dec_optim.step()
    print("epoch", epoch, "recon %.4f mmd %.4f" % (recon_loss.item(), mmd_loss.item()))
