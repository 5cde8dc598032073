import time

import torch
import torch.nn.functional as F

from model import build_detector

cfg = {
    "activate": "relu",
    "num_anchors": 3,
    "num_classes": 4,
    "img_size": 32,
    "batch_size": 4,
    "epochs": 2,
    "iters_per_epoch": 2,
    "lr": 1e-3,
    "weight_decay": 5e-4,
}


def yolo_like_loss(pred, target):
    obj_loss = F.binary_cross_entropy_with_logits(pred[:, 4::9], target[:, 4::9])
    box_loss = F.smooth_l1_loss(pred, target)
    return obj_loss + box_loss


def main():
    torch.manual_seed(0)
    model = build_detector(cfg)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9,
                                weight_decay=cfg["weight_decay"])
    for epoch in range(cfg["epochs"]):
        model.train()
        t0 = time.time()
        for it in range(cfg["iters_per_epoch"]):
            imgs = torch.rand(cfg["batch_size"], 3, cfg["img_size"], cfg["img_size"])
            pred = model(imgs)
            target = torch.rand_like(pred)
            loss = yolo_like_loss(pred, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} iter {it} loss {loss.item():.4f} ({time.time() - t0:.2f}s)")


if __name__ == "__main__":
    main()
