"""One-step generator distilled from a frozen teacher score model (distribution matching
distillation + GAN head on the 'fake' score model). Alternating generator / guidance turns; the guidance turn draws its own sample under no_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
DIM, HID = 8, 32


class ScoreNet(nn.Module):
    """Predicts the noise added to x_t; its hidden features also feed the GAN classifier."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(DIM + 1, HID), nn.SiLU(), nn.Linear(HID, HID), nn.SiLU())
        self.out = nn.Linear(HID, DIM)

    def features(self, x_t, t):
        return self.body(torch.cat([x_t, t], dim=-1))

    def forward(self, x_t, t):
        return self.out(self.features(x_t, t))


def add_noise(x, t, noise):
    return (1 - t).sqrt() * x + t.sqrt() * noise


class GuidanceModel(nn.Module):
    def __init__(self, teacher):
        super().__init__()
        self.real_unet = teacher                # frozen teacher
        self.real_unet.requires_grad_(False)
        self.fake_unet = ScoreNet()             # tracks the generator distribution
        self.cls_head = nn.Linear(HID, 1)

    def compute_distribution_matching_loss(self, x):
        t = torch.rand(x.size(0), 1) * 0.9 + 0.05
        with torch.no_grad():
            noise = torch.randn_like(x)
            x_t = add_noise(x, t, noise)
            grad = self.fake_unet(x_t, t) - self.real_unet(x_t, t)
            grad = grad / grad.abs().mean(dim=1, keepdim=True).clamp_min(1e-4)
        return 0.5 * F.mse_loss(x, (x - grad).detach())

    def compute_cls_logits(self, x):
        t = torch.full((x.size(0), 1), 0.3)
        x_t = add_noise(x, t, torch.randn_like(x))
        return self.cls_head(self.fake_unet.features(x_t, t))

    def forward(self, generator_turn=False, guidance_turn=False, data=None):
        if generator_turn:
            x = data["image"]
            return {"loss_dm": self.compute_distribution_matching_loss(x),
                    "gen_cls_loss": F.softplus(-self.compute_cls_logits(x)).mean()}
        fake, real = data["image"].detach(), data["real"]
        t = torch.rand(fake.size(0), 1) * 0.9 + 0.05
        noise = torch.randn_like(fake)
        loss_fake = F.mse_loss(self.fake_unet(add_noise(fake, t, noise), t), noise)
        loss_cls = F.softplus(self.compute_cls_logits(fake)).mean() + \
            F.softplus(-self.compute_cls_logits(real)).mean()
        return {"loss_fake_mean": loss_fake, "guidance_cls_loss": loss_cls}


class UnifiedModel:
    def __init__(self, teacher, lr=1e-3, gan_weight=0.1):
        self.feedforward_model = nn.Sequential(nn.Linear(DIM, HID), nn.SiLU(), nn.Linear(HID, DIM))
        self.guidance_model = GuidanceModel(teacher)
        self.optimizer_generator = torch.optim.AdamW(self.feedforward_model.parameters(), lr=lr)
        self.optimizer_guidance = torch.optim.AdamW(
            [p for p in self.guidance_model.parameters() if p.requires_grad], lr=lr)
        self.gan_weight = gan_weight

    def generator_step(self, batch):
        z = torch.randn(batch, DIM)
        image = self.feedforward_model(z)
        # freeze the guidance weights for this turn; gradients still flow through them to the generator
        self.guidance_model.requires_grad_(False)
        loss_dict = self.guidance_model(generator_turn=True, data={"image": image})
        self.guidance_model.requires_grad_(True)
        self.guidance_model.real_unet.requires_grad_(False)
        loss = loss_dict["loss_dm"] + self.gan_weight * loss_dict["gen_cls_loss"]
        self.optimizer_generator.zero_grad()
        loss.backward()
        self.optimizer_generator.step()
        return image, loss.item()

    def guidance_step(self, batch, real):
        # the guidance turn needs no generator gradients: draw a fresh sample without a graph
        with torch.no_grad():
            image = self.feedforward_model(torch.randn(batch, DIM))
        loss_dict = self.guidance_model(guidance_turn=True, data={"image": image, "real": real})
        loss = loss_dict["loss_fake_mean"] + self.gan_weight * loss_dict["guidance_cls_loss"]
        self.optimizer_guidance.zero_grad()
        loss.backward()
        self.optimizer_guidance.step()
        return loss.item()


def main(steps=5, batch=16):
    teacher = ScoreNet()
    model = UnifiedModel(teacher)
    for step in range(steps):
        real = torch.randn(batch, DIM) * 0.5 + 1.0
        _, g_loss = model.generator_step(batch)
        d_loss = model.guidance_step(batch, real)
        print(step, round(g_loss, 4), round(d_loss, 4))


if __name__ == "__main__":
    main()
