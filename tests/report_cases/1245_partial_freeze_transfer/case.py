"""Transfer learning: freeze the early stages of a pretrained CNN, train the last stage and a new head."""
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
logger = logging.getLogger("transfer")

CONFIG = {"num_classes": 4, "freeze_stages": 2, "epochs": 2, "iters": 2, "batch_size": 8, "lr": 1e-3}


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stage1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True))
        self.stage2 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16),
                                    nn.ReLU(inplace=True))
        self.stage3 = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32),
                                    nn.ReLU(inplace=True))
        self.out_dim = 32

    def forward(self, x):
        return self.stage3(self.stage2(self.stage1(x)))


class TransferModel(nn.Module):
    def __init__(self, backbone, num_classes):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2),
                                  nn.Linear(backbone.out_dim, num_classes))

    def forward(self, x):
        return self.head(self.backbone(x))


def freeze_stages(backbone, n):
    for i in range(1, n + 1):
        stage = getattr(backbone, f"stage{i}")
        stage.eval()
        for p in stage.parameters():
            p.requires_grad = False


def main(cfg):
    torch.manual_seed(0)
    model = TransferModel(Backbone(), cfg["num_classes"])
    freeze_stages(model.backbone, cfg["freeze_stages"])
    trainable = [p for p in model.parameters() if p.requires_grad]
    logger.info("trainable params: %d / %d", sum(p.numel() for p in trainable),
                sum(p.numel() for p in model.parameters()))
    optimizer = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=cfg["lr"])

    for epoch in range(cfg["epochs"]):
        model.train()
        freeze_stages(model.backbone, cfg["freeze_stages"])
        for it in range(cfg["iters"]):
            x = torch.randn(cfg["batch_size"], 3, 16, 16)
            y = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],))
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            logger.info("epoch %d iter %d loss %.4f", epoch, it, loss.item())


if __name__ == "__main__":
    main(CONFIG)
