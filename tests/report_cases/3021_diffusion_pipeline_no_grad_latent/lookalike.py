"""Latent inversion (RONAN-style): freeze the text-to-image pipeline and optimise the initial
noise so that the generated image reproduces a target image0; the reconstruction distance
tells whether image0 came from this model."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from pipeline import TinyDiffusionPipeline

model = TinyDiffusionPipeline()
for module in (model.unet, model.vae.up, model.text_encoder):
    module.eval()
    for param in module.parameters():
        param.requires_grad = False

height = model.unet.config.sample_size * model.vae_scale_factor
torch.manual_seed(0)
gt_noise = torch.randn(1, model.unet.config.in_channels, height // model.vae_scale_factor, height // model.vae_scale_factor)
image0 = model("dog", latents=gt_noise).images          # the image whose origin we test

cur_noise = nn.Parameter(torch.randn_like(gt_noise), requires_grad=True)
optimizer = torch.optim.Adam([cur_noise], lr=0.05)
criterion = nn.MSELoss()

for step in range(20):
    image = model.latent2output(cur_noise, "dog")[0]
    image_ = torch.unsqueeze(image, dim=0)
    image_16 = F.interpolate(image_, size=(16, 16), mode="bilinear", align_corners=False)
    loss = criterion(image_16, F.interpolate(image0, size=(16, 16), mode="bilinear", align_corners=False))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 5 == 0:
        preview = model("dog", latents=cur_noise.detach()).images  # sampling API, for display only
        print(f"step {step}: reconstruction mse {loss.item():.5f}, preview mean {preview.mean().item():.3f}")

print("final noise distance to gt:", (cur_noise - gt_noise).norm().item())
