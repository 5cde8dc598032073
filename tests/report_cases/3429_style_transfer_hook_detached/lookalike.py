"""Fast neural style transfer: a feed-forward transformer network is trained
with content and style (Gram-matrix) losses computed on activations of a
frozen loss network, captured by a small fastai-like Hooks utility."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Hook:
    def __init__(self, module, detach=True):
        self.detach = detach
        self.stored = None
        self.handle = module.register_forward_hook(self.hook_fn)

    def hook_fn(self, module, inputs, output):
        self.stored = output.detach() if self.detach else output

    def remove(self):
        self.handle.remove()


class Hooks:
    def __init__(self, modules, detach=True):
        self.hooks = [Hook(m, detach) for m in modules]

    @property
    def stored(self):
        return [h.stored for h in self.hooks]

    def remove(self):
        for h in self.hooks:
            h.remove()


def loss_network():
    net = nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
        nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
        nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.ReLU(),
    )
    return net.eval().requires_grad_(False)


class TransformerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.InstanceNorm2d(16, affine=True), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.InstanceNorm2d(16, affine=True), nn.ReLU(),
            nn.Conv2d(16, 3, 3, padding=1),
        )

    def forward(self, x):
        return torch.sigmoid(self.body(x) + x)


def gram(f):
    b, c, h, w = f.shape
    f = f.view(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


def train(steps=15, style_weight=1e3):
    vgg = loss_network()
    layers = [vgg[1], vgg[3], vgg[5]]
    target_hooks = Hooks(layers)
    style_img = torch.rand(1, 3, 32, 32)
    vgg(style_img)
    style_grams = [gram(f) for f in target_hooks.stored]
    target_hooks.remove()
    hooks = Hooks(layers, detach=False)
    model = TransformerNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        content = torch.rand(4, 3, 32, 32)
        with torch.no_grad():
            vgg(content)
            content_feats = hooks.stored
        stylized = model(content)
        vgg(stylized)
        gen_feats = hooks.stored
        content_loss = F.mse_loss(gen_feats[1], content_feats[1])
        style_loss = sum(F.mse_loss(gram(g), s.expand(g.size(0), -1, -1)) for g, s in zip(gen_feats, style_grams))
        loss = content_loss + style_weight * style_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(f"step {step}: content {content_loss.item():.4f} style {style_loss.item():.6f}")
    hooks.remove()


if __name__ == "__main__":
    train()
