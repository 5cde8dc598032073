"""Style transfer by optimising the pixels; the feature extractor is frozen and targets are precomputed."""
import torch
from torch import nn
import torch.nn.functional as F

STYLE_LAYERS = (0, 2, 4)
CONTENT_LAYER = 4


class FeatureExtractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
        )

    def forward(self, X):
        contents, styles = [], []
        for i, layer in enumerate(self.layers):
            X = layer(X)
            if i in STYLE_LAYERS:
                styles.append(X)
            if i == CONTENT_LAYER:
                contents.append(X)
        return contents, styles


def gram(X):
    num_channels, n = X.shape[1], X.numel() // X.shape[1]
    X = X.reshape((num_channels, n))
    return X @ X.T / (num_channels * n)


def tv_loss(Y_hat):
    return 0.5 * ((Y_hat[:, :, 1:, :] - Y_hat[:, :, :-1, :]).abs().mean()
                  + (Y_hat[:, :, :, 1:] - Y_hat[:, :, :, :-1]).abs().mean())


class SynthesizedImage(nn.Module):
    def __init__(self, img_shape):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(*img_shape))

    def forward(self):
        return self.weight


def train(content_img, style_img, num_epochs=4, lr=0.3):
    net = FeatureExtractor().eval()
    net.requires_grad_(False)

    # features of the reference images never change, so compute them once
    contents_Y, _ = net(content_img)
    _, styles_Y = net(style_img)
    styles_Y_gram = [gram(Y) for Y in styles_Y]

    gen_img = SynthesizedImage(content_img.shape)
    gen_img.weight.data.copy_(content_img.data)
    trainer = torch.optim.Adam(gen_img.parameters(), lr=lr)
    scheduler = torch.optim.lr_scheduler.StepLR(trainer, 2, 0.8)

    for epoch in range(num_epochs):
        trainer.zero_grad()
        X = gen_img()
        contents_Y_hat, styles_Y_hat = net(X)
        content_l = sum(F.mse_loss(Y_hat, Y) for Y_hat, Y in zip(contents_Y_hat, contents_Y))
        style_l = sum(F.mse_loss(gram(Y_hat), Y) for Y_hat, Y in zip(styles_Y_hat, styles_Y_gram))
        l = content_l + 1e3 * style_l + 10 * tv_loss(X)
        l.backward()
        trainer.step()
        scheduler.step()
        print(f"epoch {epoch}: content {float(content_l):.4f} style {float(style_l):.6f}")
    return X


if __name__ == "__main__":
    torch.manual_seed(0)
    train(torch.rand(1, 3, 16, 16), torch.rand(1, 3, 16, 16))
