"""RQ-VAE that turns item content embeddings into semantic IDs for a
generative recommender: residual quantisation with 3 codebooks updated by
exponential moving averages (k-means style) and a straight-through estimator."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

ITEM_DIM, LATENT, CODES, LEVELS = 32, 16, 32, 3


class StraightThrough(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, q):
        return q.clone()

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out, None


class ResidualQuantizer(nn.Module):
    def __init__(self, decay=0.9):
        super().__init__()
        self.codebooks = nn.ModuleList([nn.Embedding(CODES, LATENT) for _ in range(LEVELS)])
        for book in self.codebooks:
            book.weight.requires_grad_(False)
        self.decay = decay

    @torch.no_grad()
    def ema_update(self, book, residual, idx):
        onehot = F.one_hot(idx, CODES).float()
        counts = onehot.sum(0).unsqueeze(1)
        sums = onehot.t() @ residual
        used = counts.squeeze(1) > 0
        book.weight[used] = self.decay * book.weight[used] + (1 - self.decay) * sums[used] / counts[used]

    def quantize(self, book, residual):
        dist = torch.cdist(residual, book.weight)
        idx = dist.argmin(dim=1)
        emb = StraightThrough.apply(residual, book(idx))
        return emb, idx

    def forward(self, z):
        residual = z
        quantized = torch.zeros_like(z)
        residuals, embs, ids = [], [], []
        for book in self.codebooks:
            emb, idx = self.quantize(book, residual)
            residuals.append(residual)
            embs.append(emb)
            ids.append(idx)
            if self.training:
                self.ema_update(book, residual.detach(), idx)
            quantized = quantized + emb
            residual = residual - emb
        return quantized, residuals, embs, torch.stack(ids, dim=1)


def commitment_loss(residuals, embs, beta=0.25):
    loss = 0.0
    for r, e in zip(residuals, embs):
        loss = loss + beta * F.mse_loss(r, e.detach())
    return loss


class RQVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(ITEM_DIM, 64), nn.SiLU(), nn.Linear(64, LATENT))
        self.decoder = nn.Sequential(nn.Linear(LATENT, 64), nn.SiLU(), nn.Linear(64, ITEM_DIM))
        self.quantizer = ResidualQuantizer()

    def forward(self, x):
        z = self.encoder(x)
        q, residuals, embs, ids = self.quantizer(z)
        x_hat = self.decoder(q)
        loss = F.mse_loss(x_hat, x) + commitment_loss(residuals, embs)
        return loss, ids


def main():
    items = torch.randn(600, ITEM_DIM)
    model = RQVAE()
    ae_params = list(model.encoder.parameters()) + list(model.decoder.parameters())
    opt_ae = torch.optim.Adam(ae_params, lr=1e-3)
    for step in range(20):
        batch = items[torch.randint(0, len(items), (128,))]
        loss, ids = model(batch)
        opt_ae.zero_grad()
        loss.backward()
        opt_ae.step()
        if step % 5 == 0:
            used = ids[:, 0].unique().numel()
            print(f"step {step}: loss {loss.item():.4f}, level-0 codes used {used}")


if __name__ == "__main__":
    main()
