import logging

import torch
import torch.nn.functional as F

from utils import build_model, build_optimizer, load_checkpoint, save_checkpoint

logging.basicConfig(level=logging.INFO, format="[%(name)s] %(message)s")
log = logging.getLogger("finetune")

CFG = {
    "vocab_size": 100,
    "emb_dim": 16,
    "num_filters": 8,
    "kernel_sizes": [2, 3],
    "num_classes": 3,
    "lr": 2e-3,
    "weight_decay": 0.01,
    "resume": True,
    "epochs": 2,
    "batches_per_epoch": 3,
    "batch_size": 8,
    "seq_len": 12,
}


def pretrained_checkpoint(cfg):
    """Stands in for a checkpoint file produced by an earlier pre-training run."""
    torch.manual_seed(123)
    return save_checkpoint(build_model(cfg))


def main(cfg):
    ckpt = pretrained_checkpoint(cfg)
    torch.manual_seed(0)

    model = build_model(cfg)
    optimizer = build_optimizer(model, cfg)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
    if cfg["resume"]:
        model = load_checkpoint(cfg, ckpt)

    for epoch in range(cfg["epochs"]):
        model.train()
        total = 0.0
        for _ in range(cfg["batches_per_epoch"]):
            tokens = torch.randint(0, cfg["vocab_size"], (cfg["batch_size"], cfg["seq_len"]))
            labels = tokens[:, 0] % cfg["num_classes"]
            loss = F.cross_entropy(model(tokens), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        scheduler.step()
        log.info("epoch %d loss %.4f lr %.5f", epoch, total / cfg["batches_per_epoch"], scheduler.get_last_lr()[0])


if __name__ == "__main__":
    main(CFG)
