"""Two-stage detector fine-tuning: the box head starts frozen and is unfrozen at iteration
N (warm-up of the new RPN/predictor first). Optimizer built detectron2-style from the
parameters that require grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyRCNN(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.rpn_head = nn.Conv2d(8, 2, 1)
        self.box_head = nn.Sequential(nn.Flatten(), nn.Linear(8 * 16, 32), nn.ReLU())
        self.box_predictor = nn.Linear(32, num_classes)
        for p in self.box_head.parameters():
            p.requires_grad = False

    def unfreeze_box_head(self):
        for p in self.box_head.parameters():
            p.requires_grad = True
        print("Unfreeze roi_box_head parameters")

    def forward(self, images, targets):
        feats = self.backbone(images)
        objectness = self.rpn_head(feats).mean((2, 3))
        rpn_loss = F.cross_entropy(objectness, (targets > 0).long())
        cls_loss = F.cross_entropy(self.box_predictor(self.box_head(feats)), targets)
        return {"loss_rpn": rpn_loss, "loss_cls": cls_loss}


def build_optimizer(model, base_lr=0.02):
    params = [p for p in model.parameters() if p.requires_grad]
    return torch.optim.SGD(params, lr=base_lr, momentum=0.9)


def do_train(max_iter=8, unfreeze_at=3):
    model = TinyRCNN()
    optimizer = build_optimizer(model)
    head_w0 = model.box_head[1].weight.detach().clone()
    for iteration in range(max_iter):
        if iteration == unfreeze_at:
            model.unfreeze_box_head()
            # the optimizer only holds what required grad when it was built: add the head now
            optimizer.add_param_group({"params": list(model.box_head.parameters())})
        images, targets = torch.randn(4, 3, 8, 8), torch.randint(0, 3, (4,))
        loss_dict = model(images, targets)
        losses = sum(loss_dict.values())
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
    print("box head weight change after unfreezing:", (model.box_head[1].weight - head_w0).abs().max().item())


if __name__ == "__main__":
    do_train()
