"""Gatys-style image optimisation with activations captured by forward hooks."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IMSIZE = 24
STYLE_LAYERS = ["conv1", "conv2", "conv3"]
CONTENT_LAYERS = ["conv3"]
STYLE_WEIGHT = 1e4
CONTENT_WEIGHT = 1.0
NUM_STEPS = 5


class SmallVGG(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.relu2 = nn.ReLU()
        self.pool = nn.AvgPool2d(2)
        self.conv3 = nn.Conv2d(16, 16, 3, padding=1)
        self.relu3 = nn.ReLU()

    def forward(self, x):
        x = self.relu1(self.conv1(x))
        x = self.pool(self.relu2(self.conv2(x)))
        return self.relu3(self.conv3(x))


class ActivationRecorder:
    def __init__(self, model, layer_names):
        self.activations = {}
        self.handles = []
        for name in layer_names:
            layer = getattr(model, name)
            self.handles.append(layer.register_forward_hook(self._make_hook(name)))

    def _make_hook(self, name):
        def hook(module, inputs, output):
            self.activations[name] = output
        return hook

    def remove(self):
        for h in self.handles:
            h.remove()


def gram_matrix(feat):
    b, c, h, w = feat.size()
    f = feat.view(b * c, h * w)
    return f.mm(f.t()).div(b * c * h * w)


def run_style_transfer(cnn, content_img, style_img, input_img):
    recorder = ActivationRecorder(cnn, sorted(set(STYLE_LAYERS + CONTENT_LAYERS)))

    with torch.no_grad():
        cnn(style_img)
        style_targets = {name: gram_matrix(recorder.activations[name]) for name in STYLE_LAYERS}
        cnn(content_img)
        content_targets = {name: recorder.activations[name] for name in CONTENT_LAYERS}

    input_img.requires_grad_(True)
    optimizer = torch.optim.Adam([input_img], lr=0.05)

    for step in range(NUM_STEPS):
        optimizer.zero_grad()
        cnn(input_img)
        style_score = sum(F.mse_loss(gram_matrix(recorder.activations[n]), style_targets[n])
                          for n in STYLE_LAYERS)
        content_score = sum(F.mse_loss(recorder.activations[n], content_targets[n])
                            for n in CONTENT_LAYERS)
        loss = STYLE_WEIGHT * style_score + CONTENT_WEIGHT * content_score
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            input_img.clamp_(0, 1)
        print(f"step {step}: style {style_score.item():.4f} content {content_score.item():.4f}")

    recorder.remove()
    return input_img.detach()


if __name__ == "__main__":
    torch.manual_seed(7)
    cnn = SmallVGG().eval()
    content = torch.rand(1, 3, IMSIZE, IMSIZE)
    style = torch.rand(1, 3, IMSIZE, IMSIZE)
    output = run_style_transfer(cnn, content, style, content.clone())
    print("output mean", output.mean().item())
