"""WGAN-GP on 2-D toy data; nets built by a factory from a dict config."""
from functools import partial

import torch
import torch.nn as nn

CONFIG = {
    "gen": {"in": 4, "hidden": 16, "out": 2},
    "critic": {"in": 2, "hidden": 16, "out": 1},
    "lr": 1e-4, "betas": (0.0, 0.9), "lambda_gp": 10.0, "steps": 4, "batch": 8,
}


def build_mlp(cfg):
    return nn.Sequential(nn.Linear(cfg["in"], cfg["hidden"]), nn.LeakyReLU(0.2),
                         nn.Linear(cfg["hidden"], cfg["out"]))


def gradient_penalty(critic, real, fake, lambda_gp):
    eps = torch.rand(real.size(0), 1)
    interpolated = real * eps + fake * (1 - eps)
    mixed_scores = critic(interpolated)
    grad = torch.autograd.grad(outputs=mixed_scores, inputs=interpolated,
                               grad_outputs=torch.ones_like(mixed_scores),
                               create_graph=True, retain_graph=True)[0]
    return lambda_gp * ((grad.norm(2, dim=1) - 1) ** 2).mean()


def real_batches(batch):
    while True:
        theta = torch.rand(batch) * 6.283
        yield torch.stack([theta.cos(), theta.sin()], dim=1) + 0.05 * torch.randn(batch, 2)


def main(cfg=CONFIG):
    torch.manual_seed(0)
    gen, critic = build_mlp(cfg["gen"]), build_mlp(cfg["critic"])
    opt_gen = torch.optim.Adam(gen.parameters(), lr=cfg["lr"], betas=cfg["betas"])
    opt_critic = torch.optim.Adam(critic.parameters(), lr=cfg["lr"], betas=cfg["betas"])
    gp_fn = partial(gradient_penalty, lambda_gp=cfg["lambda_gp"])
    data = real_batches(cfg["batch"])
    for step in range(cfg["steps"]):
        real = next(data)
        noise = torch.randn(cfg["batch"], cfg["gen"]["in"])
        fake = gen(noise)

        critic_real = critic(real).reshape(-1)
        critic_fake = critic(fake).reshape(-1)
        gp = gp_fn(critic, real, fake)
        loss_critic = -(critic_real.mean() - critic_fake.mean()) + gp
        opt_critic.zero_grad()
        loss_critic.backward()
        opt_critic.step()

        gen_fake = critic(fake).reshape(-1)
        loss_gen = -gen_fake.mean()
        opt_gen.zero_grad()
        loss_gen.backward()
        opt_gen.step()
        print(step, round(loss_critic.item(), 4), round(loss_gen.item(), 4))


if __name__ == "__main__":
    main()
