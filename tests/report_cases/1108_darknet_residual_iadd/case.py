"""CSPDarknet-style backbone with a selectable activation, trained as a tiny classifier."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Mish(nn.Module):
    def forward(self, x):
        return x * torch.tanh(F.softplus(x))


ACTIVATIONS = {
    "relu": nn.ReLU,
    "leaky": lambda: nn.LeakyReLU(0.1),
    "mish": Mish,
}


class Convolutional(nn.Module):
    def __init__(self, filters_in, filters_out, kernel_size, stride=1, norm="bn", activate="mish"):
        super().__init__()
        self.norm, self.activate = norm, activate
        self.__conv = nn.Conv2d(filters_in, filters_out, kernel_size, stride, kernel_size // 2,
                                bias=norm is None)
        self.__norm = nn.BatchNorm2d(filters_out) if norm == "bn" else nn.Identity()
        self.__activate = ACTIVATIONS[activate]() if activate else nn.Identity()

    def forward(self, x):
        return self.__activate(self.__norm(self.__conv(x)))


class CSPBlock(nn.Module):
    def __init__(self, in_channels, out_channels, hidden_channels=None, residual_activation="linear",
                 activate="mish"):
        super().__init__()
        hidden_channels = hidden_channels or out_channels
        self.block = nn.Sequential(
            Convolutional(in_channels, hidden_channels, 1, activate=activate),
            Convolutional(hidden_channels, out_channels, 3, activate=activate),
        )
        self.activation = ACTIVATIONS.get(residual_activation, nn.Identity)()

    def forward(self, x):
        residual = x
        out = self.block(x)
        out += residual
        return self.activation(out)


class TinyCSPDarknet(nn.Module):
    def __init__(self, num_classes=4, width=8, depth=2, activate="mish"):
        super().__init__()
        self.stem = Convolutional(3, width, 3, activate=activate)
        self.stages = nn.Sequential(*[CSPBlock(width, width, width // 2, activate=activate)
                                      for _ in range(depth)])
        self.head = nn.Linear(width, num_classes)

    def forward(self, x):
        x = self.stages(self.stem(x))
        return self.head(x.mean(dim=(2, 3)))


def train(cfg):
    model = TinyCSPDarknet(activate=cfg["activate"])
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9)
    for epoch in range(cfg["epochs"]):
        for _ in range(cfg["iters"]):
            imgs = torch.randn(cfg["batch"], 3, 8, 8)
            labels = torch.randint(0, 4, (cfg["batch"],))
            loss = F.cross_entropy(model(imgs), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    # activate='relu' instead of the default mish (CSPDarknet53.py, line 35)
    train({"activate": "relu", "lr": 0.01, "epochs": 2, "iters": 3, "batch": 4})
