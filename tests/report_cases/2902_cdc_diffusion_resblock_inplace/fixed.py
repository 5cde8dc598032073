"""Train a small conditional-diffusion style denoiser on random 'image patches'."""
import torch
from network_components_fixed import Unet
from diffusion import GaussianDiffusion

torch.manual_seed(0)


def train(steps=4):
    model = GaussianDiffusion(Unet(dim=8, channels=1), timesteps=50)
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)
    data = torch.rand(16, 1, 8, 8) * 2 - 1
    for step in range(steps):
        batch = data[torch.randint(0, 16, (4,))]
        loss = model(batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
