"""Tiny CycleGAN networks, image pool and GAN loss."""
import random

import torch
import torch.nn as nn


def define_G(ch=16):
    return nn.Sequential(
        nn.Conv2d(3, ch, 3, 1, 1), nn.InstanceNorm2d(ch), nn.ReLU(True),
        nn.Conv2d(ch, ch, 3, 1, 1), nn.InstanceNorm2d(ch), nn.ReLU(True),
        nn.Conv2d(ch, 3, 3, 1, 1), nn.Tanh())


def define_D(ch=16):
    return nn.Sequential(
        nn.Conv2d(3, ch, 4, 2, 1), nn.LeakyReLU(0.2, True),
        nn.Conv2d(ch, 2 * ch, 4, 2, 1), nn.InstanceNorm2d(2 * ch), nn.LeakyReLU(0.2, True),
        nn.Conv2d(2 * ch, 1, 3, 1, 1))


class GANLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.MSELoss()

    def __call__(self, prediction, target_is_real):
        target = torch.ones_like(prediction) if target_is_real else torch.zeros_like(prediction)
        return self.loss(prediction, target)


class ImagePool:
    def __init__(self, pool_size=10):
        self.pool_size, self.images = pool_size, []

    def query(self, images):
        out = []
        for image in images:
            image = image.unsqueeze(0)
            if len(self.images) < self.pool_size:
                self.images.append(image)
                out.append(image)
            elif random.random() > 0.5:
                idx = random.randint(0, self.pool_size - 1)
                tmp = self.images[idx].clone()
                self.images[idx] = image
                out.append(tmp)
            else:
                out.append(image)
        return torch.cat(out, 0)
