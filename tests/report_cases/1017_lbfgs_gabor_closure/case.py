import math

import torch
import torch.nn as nn


class GaborGenerator(nn.Module):
    def __init__(self, image_size=(16, 16)):
        super().__init__()
        self.image_size = image_size
        self.theta = nn.Parameter(torch.rand(1) * math.pi)
        self.sigma = nn.Parameter(torch.tensor([3.0]))
        self.Lambda = nn.Parameter(torch.tensor([6.0]))
        self.psi = nn.Parameter(torch.tensor([0.0]))
        self.gamma = nn.Parameter(torch.tensor([1.0]))
        self.center = nn.Parameter(torch.zeros(2))
        h, w = image_size
        ys, xs = torch.meshgrid(torch.linspace(-h / 2, h / 2, h), torch.linspace(-w / 2, w / 2, w), indexing="ij")
        self.register_buffer("grid_x", xs)
        self.register_buffer("grid_y", ys)

    def forward(self):
        x = self.grid_x - self.center[0]
        y = self.grid_y - self.center[1]
        x_theta = x * torch.cos(self.theta) + y * torch.sin(self.theta)
        y_theta = -x * torch.sin(self.theta) + y * torch.cos(self.theta)
        sigma_y = self.sigma / self.gamma
        envelope = torch.exp(-0.5 * (x_theta ** 2 / self.sigma ** 2 + y_theta ** 2 / sigma_y ** 2))
        carrier = torch.cos(2 * math.pi / self.Lambda * x_theta + self.psi)
        return (envelope * carrier).view(1, 1, *self.image_size)


class ModelNeuron(nn.Module):
    """A frozen 'in-silico neuron': a fixed linear-nonlinear readout."""

    def __init__(self, image_size=(16, 16)):
        super().__init__()
        self.rf = nn.Conv2d(1, 1, image_size, bias=False)
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, img):
        return torch.nn.functional.elu(self.rf(img)).sum()


def trainer_fn(gabor_generator, model_neuron, epochs=5, lr=0.5, fixed_std=1.0):
    optimizer = torch.optim.LBFGS(gabor_generator.parameters(), lr=lr, max_iter=4)
    history = []
    for epoch in range(epochs):
        def closure():
            optimizer.zero_grad()
            gabor = gabor_generator()
            gabor_std_constrained = fixed_std * gabor / gabor.std()
            loss = -model_neuron(gabor_std_constrained)
            loss.backward()
            return loss

        loss = optimizer.step(closure)
        history.append(float(loss))
        print(f"epoch {epoch}: response {-history[-1]:.4f}")
    return gabor_generator, history


if __name__ == "__main__":
    torch.manual_seed(0)
    neuron = ModelNeuron()
    gen, hist = trainer_fn(GaborGenerator(), neuron)
    print("learned theta", gen.theta.item())
