"""DeepFill-v2-style inpainting GAN: masked L1 + LSGAN loss on a patch discriminator."""
import torch
import torch.nn as nn
import networks

torch.manual_seed(0)

opt = {"ngf": 16, "ndf": 16, "lr_g": 2e-4, "lr_d": 2e-4, "b1": 0.5, "b2": 0.999, "weight_decay": 0.0,
       "epochs": 2, "batches": 4, "batch_size": 4, "lambda_l1": 1.0, "lambda_gan": 0.1}


def random_batch(bs, size=32):
    img = torch.rand(bs, 3, size, size) * 2 - 1
    mask = torch.zeros(bs, 1, size, size)
    for b in range(bs):
        y, x = torch.randint(0, size // 2, (2,))
        mask[b, :, y:y + size // 2, x:x + size // 2] = 1.0
    return img, mask


def Trainer_GAN(opt):
    generator = networks.create_generator(opt)
    discriminator = networks.create_discriminator(opt)
    L1Loss, MSELoss = nn.L1Loss(), nn.MSELoss()

    optimizer_g = torch.optim.Adam(generator.parameters(), lr=opt["lr_g"], betas=(opt["b1"], opt["b2"]),
                                   weight_decay=opt["weight_decay"])
    optimizer_d = torch.optim.Adam(generator.parameters(), lr=opt["lr_d"], betas=(opt["b1"], opt["b2"]),
                                   weight_decay=opt["weight_decay"])

    for epoch in range(opt["epochs"]):
        for batch_idx in range(opt["batches"]):
            img, mask = random_batch(opt["batch_size"])

            # ---------------- train discriminator ----------------
            optimizer_d.zero_grad()
            out = generator(img, mask)
            out_wholeimg = img * (1 - mask) + out * mask
            fake_scalar = discriminator(out_wholeimg.detach(), mask)
            true_scalar = discriminator(img, mask)
            loss_D = 0.5 * (MSELoss(fake_scalar, torch.zeros_like(fake_scalar))
                            + MSELoss(true_scalar, torch.ones_like(true_scalar)))
            loss_D.backward()
            optimizer_d.step()

            # ---------------- train generator ----------------
            optimizer_g.zero_grad()
            out = generator(img, mask)
            out_wholeimg = img * (1 - mask) + out * mask
            fake_scalar = discriminator(out_wholeimg, mask)
            loss_gan = MSELoss(fake_scalar, torch.ones_like(fake_scalar))
            loss_l1 = L1Loss(out_wholeimg, img)
            loss = opt["lambda_l1"] * loss_l1 + opt["lambda_gan"] * loss_gan
            loss.backward()
            optimizer_g.step()

        print(f"[epoch {epoch}] D {loss_D.item():.4f} G_l1 {loss_l1.item():.4f} G_gan {loss_gan.item():.4f}")


if __name__ == "__main__":
    Trainer_GAN(opt)
