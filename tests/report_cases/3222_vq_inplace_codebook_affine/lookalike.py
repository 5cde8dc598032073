"""VQ autoencoder whose raw (un-transformed) codebook is refreshed in place inside forward:
the second lookup starts again from the leaf weight, so no freed graph is reused."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AffineTransform(nn.Module):
    """Re-centres the codebook on the running statistics of the encoder output."""

    def __init__(self, dim, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("initialized", torch.zeros(1))
        self.register_buffer("running_ze_mean", torch.zeros(dim))
        self.register_buffer("running_ze_var", torch.ones(dim))
        self.register_buffer("running_c_mean", torch.zeros(dim))
        self.register_buffer("running_c_var", torch.ones(dim))

    @torch.no_grad()
    def update_running_statistics(self, z_e, c):
        if not self.training:
            return
        stats = (z_e.reshape(-1, z_e.size(-1)).mean(0), z_e.reshape(-1, z_e.size(-1)).var(0, unbiased=False),
                 c.mean(0), c.var(0, unbiased=False))
        names = ("running_ze_mean", "running_ze_var", "running_c_mean", "running_c_var")
        for name, value in zip(names, stats):
            if not self.initialized:
                getattr(self, name).copy_(value)
            else:
                setattr(self, name, self.momentum * value + (1 - self.momentum) * getattr(self, name))
        self.initialized.fill_(1)

    def forward(self, codebook):
        scale = (self.running_ze_var / (self.running_c_var + 1e-8)).sqrt()
        bias = -scale * self.running_c_mean + self.running_ze_mean
        return scale * codebook + bias


class VectorQuant(nn.Module):
    def __init__(self, feature_size, num_codes, beta=1.0, affine=True,
                 inplace_optimizer=None, retain_inner_graph=False):
        super().__init__()
        self.beta = beta
        self.codebook = nn.Embedding(num_codes, feature_size)
        if affine:
            self.affine_transform = AffineTransform(feature_size)
        if inplace_optimizer is not None:
            self.inplace_codebook_optimizer = inplace_optimizer(self.codebook.parameters())
        self.retain_inner_graph = retain_inner_graph

    def straight_through_approximation(self, z, z_q):
        return z + (z_q - z).detach()

    def compute_loss(self, z_e, z_q):
        return ((1.0 - self.beta) * F.mse_loss(z_e, z_q.detach())
                + self.beta * F.mse_loss(z_e.detach(), z_q))

    def quantize(self, codebook, z):
        if hasattr(self, "affine_transform"):
            self.affine_transform.update_running_statistics(z, codebook)
            codebook = self.affine_transform(codebook)
        with torch.no_grad():
            q = torch.cdist(z, codebook.unsqueeze(0).expand(z.size(0), -1, -1)).argmin(-1)
        z_q = F.embedding(q, codebook)
        if self.training and hasattr(self, "inplace_codebook_optimizer"):
            # update the codebook in place, then look the codes up again
            self.inplace_codebook_optimizer.zero_grad()
            ((z_q - z.detach()) ** 2).mean().backward(retain_graph=self.retain_inner_graph)
            self.inplace_codebook_optimizer.step()
            self.inplace_codebook_optimizer.zero_grad()
            z_q = F.embedding(q, codebook)
        return z_q, q

    def forward(self, z):
        z_q, q = self.quantize(self.codebook.weight, z)
        out = {"q": q, "loss": self.compute_loss(z, z_q)}
        return self.straight_through_approximation(z, z_q), out


torch.manual_seed(0)


class VQAutoEncoder(nn.Module):
    def __init__(self, in_dim=20, dim=8, num_codes=16, retain_inner_graph=False):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, dim))
        self.vq = VectorQuant(dim, num_codes, beta=1.0, affine=False,
                              inplace_optimizer=lambda p: torch.optim.SGD(p, lr=0.5),
                              retain_inner_graph=retain_inner_graph)
        self.decoder = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, in_dim))

    def forward(self, x):
        z = self.encoder(x)
        z_q, vq_out = self.vq(z)
        return self.decoder(z_q), vq_out


def main():
    model = VQAutoEncoder()
    params = [p for n, p in model.named_parameters() if not n.startswith("vq.codebook")]
    optimizer = torch.optim.Adam(params, lr=1e-3)
    for step in range(6):
        x = torch.randn(4, 10, 20)
        recon, vq_out = model(x)
        loss = F.mse_loss(recon, x) + vq_out["loss"]
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, round(loss.item(), 4), vq_out["q"].unique().numel())


if __name__ == "__main__":
    main()
