"""Same training loop, but the critic loss only ever sees a detached generator output."""
import torch
from gan_model import ConditionalGAN
from losses import DiscLossWGANGP

torch.manual_seed(0)


class DetachedWGANGP(DiscLossWGANGP):
    def get_loss(self, net, real_a, fake_b, real_b):
        # the whole critic objective, penalty included, is built on the detached sample
        return super().get_loss(net, real_a, fake_b.detach(), real_b)


def blurred_pairs(n_batches=3, batch=2, size=16):
    for _ in range(n_batches):
        sharp = torch.rand(batch, 3, size, size) * 2 - 1
        blurred = torch.nn.functional.avg_pool2d(sharp, 3, stride=1, padding=1)
        yield blurred, sharp


def main():
    model = ConditionalGAN()
    model.disc_loss = DetachedWGANGP()
    for epoch in range(2):
        for i, (blurred, sharp) in enumerate(blurred_pairs()):
            model.set_input(blurred, sharp)
            model.optimize_parameters()
            print(epoch, i, model.current_errors())


if __name__ == "__main__":
    main()
