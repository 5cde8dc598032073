"""Gatys-style neural style transfer on tiny random images with a small conv feature net."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

content_layers = ["conv_3"]
style_layers = ["conv_1", "conv_2", "conv_3"]


def build_feature_net():
    layers = []
    in_ch = 3
    for i, out_ch in enumerate([8, 16, 16], start=1):
        layers.append((f"conv_{i}", nn.Conv2d(in_ch, out_ch, 3, padding=1)))
        layers.append((f"relu_{i}", nn.ReLU()))
        in_ch = out_ch
    return nn.ModuleDict(dict(layers))


def extract(net, img):
    feats = {}
    x = img
    for name, layer in net.items():
        x = layer(x)
        if name.startswith("conv"):
            feats[name] = x
    return feats


def gram_matrix(x):
    b, c, h, w = x.size()
    f = x.view(b * c, h * w)
    return f @ f.t() / (b * c * h * w)


cnn = build_feature_net()
content_img = torch.rand(1, 3, 16, 16)
style_img = torch.rand(1, 3, 16, 16)

content_targets = {k: v for k, v in extract(cnn, content_img).items() if k in content_layers}
style_targets = {k: gram_matrix(v) for k, v in extract(cnn, style_img).items() if k in style_layers}

input_img = content_img.clone().requires_grad_(True)
optimizer = torch.optim.LBFGS([input_img], max_iter=4)
style_weight, content_weight = 1e4, 1.0

for step in range(2):
    def closure():
        with torch.no_grad():
            input_img.clamp_(0, 1)
        optimizer.zero_grad()
        feats = extract(cnn, input_img)
        style_score = sum(F.mse_loss(gram_matrix(feats[k]), style_targets[k]) for k in style_layers)
        content_score = sum(F.mse_loss(feats[k], content_targets[k]) for k in content_layers)
        loss = style_weight * style_score + content_weight * content_score
        loss.backward()
        return loss

    loss = optimizer.step(closure)
    print(f"step {step}: loss {loss.item():.4f}")

with torch.no_grad():
    input_img.clamp_(0, 1)
