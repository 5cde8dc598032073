"""Fine-tune a pretrained classifier: head-only warm-up, then unfreeze the backbone."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from model import Classifier, freeze, unfreeze

HPARAMS = {"num_classes": 3, "head_lr": 1e-2, "backbone_lr": 1e-3, "warmup_epochs": 1, "epochs": 3,
           "batch_size": 8}


def loader(x, y, bs):
    perm = torch.randperm(x.size(0))
    for idx in perm.split(bs):
        yield x[idx], y[idx]


def main(hp=HPARAMS):
    torch.manual_seed(0)
    model = Classifier(num_classes=10)
    pretrained = {k: v.clone() for k, v in model.state_dict().items()}
    model.load_state_dict(pretrained)

    model.head = nn.Linear(model.backbone.out_features, hp["num_classes"])
    freeze(model.backbone)
    optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()),
                                lr=hp["head_lr"], momentum=0.9)

    x = torch.randn(24, 12)
    y = torch.randint(0, hp["num_classes"], (24,))
    for epoch in range(hp["epochs"]):
        if epoch == hp["warmup_epochs"]:
            unfreeze(model.backbone)
            optimizer.add_param_group({"params": model.backbone.parameters(), "lr": hp["backbone_lr"]})
        model.train()
        losses = []
        for xb, yb in loader(x, y, hp["batch_size"]):
            loss = F.cross_entropy(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
        print(f"epoch {epoch}: loss {sum(losses) / len(losses):.4f} trainable params {trainable}")


if __name__ == "__main__":
    main()
