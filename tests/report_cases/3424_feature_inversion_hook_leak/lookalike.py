"""Image reconstruction by feature inversion (iCNN-style): starting from noise,
an image is optimised so that the activations of a frozen encoder, captured
with forward hooks, match target features. Several targets are reconstructed
with the same encoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_encoder():
    enc = nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
        nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
        nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.ReLU(),
    )
    for p in enc.parameters():
        p.requires_grad_(False)
    return enc.eval()


class FeatureExtractor:
    def __init__(self, encoder, layers, detach=True):
        self.encoder = encoder
        self.layers = layers
        self.detach = detach
        self.features = {}
        self.stats = {name: [] for name in layers}
        modules = dict(encoder.named_modules())
        self.handles = [modules[name].register_forward_hook(self._make_hook(name)) for name in layers]

    def _make_hook(self, name):
        def hook(module, inputs, output):
            self.features[name] = output.detach() if self.detach else output
            self.stats[name].append(output.detach().abs().mean())
        return hook

    def close(self):
        for handle in self.handles:
            handle.remove()
        self.handles = []
        self.features = {}

    def __call__(self, x):
        self.encoder(x)
        return dict(self.features)


def reconstruct(encoder, target_img, layers=("1", "3", "5"), iters=15, lr=0.05):
    target_extractor = FeatureExtractor(encoder, layers)
    with torch.no_grad():
        target = {k: v.clone() for k, v in target_extractor(target_img).items()}
    target_extractor.close()
    extractor = FeatureExtractor(encoder, layers, detach=False)
    image = nn.Parameter(0.1 * torch.randn_like(target_img))
    optimizer = torch.optim.Adam([image], lr=lr)
    try:
        for it in range(iters):
            feats = extractor(image)
            loss = sum(F.mse_loss(feats[k], target[k]) for k in layers) + 1e-3 * image.pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        act_trace = {k: torch.stack(v).tolist()[-1] for k, v in extractor.stats.items()}
    finally:
        extractor.close()
    print("final mean activations:", {k: round(v, 3) for k, v in act_trace.items()})
    return image.detach(), loss.item()


def main():
    encoder = make_encoder()
    for i in range(3):
        target_img = torch.rand(1, 3, 32, 32)
        recon, loss = reconstruct(encoder, target_img)
        err = (recon - target_img).abs().mean().item()
        print(f"target {i}: feature loss {loss:.4f} pixel error {err:.3f}")


if __name__ == "__main__":
    main()
