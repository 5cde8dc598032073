"""Shape-and-texture glyph generator: two objectives through one shared encoder.

The shape loss is back-propagated first with the graph retained, then
the texture loss; a single optimizer step follows.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GlyphNet(nn.Module):
    def __init__(self, dim=12, hidden=24):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.decoders = nn.ModuleDict({
            "shape": nn.Linear(hidden, dim),
            "texture": nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, dim)),
        })

    def forward(self, x):
        z = self.encoder(x)
        return {name: dec(z) for name, dec in self.decoders.items()}


def make_step(model, optimizer, weights):
    def step(x, targets):
        optimizer.zero_grad()
        outs = model(x)
        loss_shape = weights["shape"] * F.l1_loss(outs["shape"], targets["shape"])
        loss_texture = weights["texture"] * F.mse_loss(outs["texture"], targets["texture"])
        loss_shape.backward(retain_graph=True)
        loss_texture.backward()
        optimizer.step()
        return {"shape": loss_shape.item(), "texture": loss_texture.item()}
    return step


if __name__ == "__main__":
    torch.manual_seed(0)
    net = GlyphNet()
    opt = torch.optim.Adam(net.parameters(), lr=2e-4, betas=(0.5, 0.999))
    train_step = make_step(net, opt, {"shape": 1.0, "texture": 0.5})
    for it in range(4):
        x = torch.randn(6, 12)
        print(it, train_step(x, {"shape": torch.sign(x), "texture": torch.tanh(x)}))
