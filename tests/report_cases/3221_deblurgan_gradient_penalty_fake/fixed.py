"""Train a small DeblurGAN-style model (WGAN-GP critic, 5 critic steps per G step)."""
import torch
from gan_model import ConditionalGAN

torch.manual_seed(0)


def blurred_pairs(n_batches=3, batch=2, size=16):
    for _ in range(n_batches):
        sharp = torch.rand(batch, 3, size, size) * 2 - 1
        blurred = torch.nn.functional.avg_pool2d(sharp, 3, stride=1, padding=1)
        yield blurred, sharp


def main():
    model = ConditionalGAN(retain_critic_graph=True)
    for epoch in range(2):
        for i, (blurred, sharp) in enumerate(blurred_pairs()):
            model.set_input(blurred, sharp)
            model.optimize_parameters()
            print(epoch, i, model.current_errors())


if __name__ == "__main__":
    main()
