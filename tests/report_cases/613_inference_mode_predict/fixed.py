# Serving-style predictor whose predict() fits a per-request latent code
# (test-time optimisation) before decoding the output.
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, z_dim=4, out_dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, out_dim))

    def forward(self, z):
        return self.net(z)


class Predictor:
    def setup(self):
        torch.manual_seed(0)
        self.decoder = Decoder()
        self.decoder.eval()
        self.decoder.requires_grad_(False)  # pretrained, frozen

    def predict(self, observation, steps=10):
        # no inference_mode here: fitting z needs autograd; only the final decode is grad-free
        z = torch.zeros(1, 4, requires_grad=True)
        opt = torch.optim.Adam([z], lr=0.1)
        for _ in range(steps):
            opt.zero_grad()
            loss = ((self.decoder(z) - observation) ** 2).mean()
            loss.backward()
            opt.step()
        with torch.no_grad():
            return self.decoder(z)


if __name__ == "__main__":
    predictor = Predictor()
    predictor.setup()
    out = predictor.predict(torch.randn(1, 16))
    print(out.shape)
