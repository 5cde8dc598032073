"""FairMOT-style joint detection and re-ID training: a small backbone with hm/wh/reg/id heads,
MotLoss combining detection losses and an ID classification loss with learnable uncertainty
weights (s_det, s_id), trained by a BaseTrainer/MotTrainer pair."""
from types import SimpleNamespace

import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
opt = SimpleNamespace(lr=1e-3, reid_dim=16, nID=30, num_epochs=2, hm_weight=1, wh_weight=0.1, off_weight=1,
                      heads={"hm": 1, "wh": 4, "reg": 2, "id": 16}, max_objs=4)


class DLASegLite(nn.Module):
    def __init__(self, heads):
        super().__init__()
        self.base = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU())
        self.heads = heads
        for head, classes in heads.items():
            setattr(self, head, nn.Sequential(nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, classes, 1)))
        self.id_classifier = nn.Linear(heads["id"], opt.nID)   # re-ID classifier lives in the model

    def forward(self, x):
        y = self.base(x)
        return [{head: getattr(self, head)(y) for head in self.heads}]


def gather_feat(feat, ind):  # feat: (B, C, H, W), ind: (B, K) -> (B, K, C)
    feat = feat.flatten(2).permute(0, 2, 1)
    return feat.gather(1, ind.unsqueeze(2).expand(-1, -1, feat.shape[2]))


class MotLoss(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.opt, self.emb_dim, self.nID = opt, opt.reid_dim, opt.nID
        self.IDLoss = nn.CrossEntropyLoss(ignore_index=-1)
        self.emb_scale = math.sqrt(2) * math.log(self.nID - 1)
        self.s_det, self.s_id = -1.85, -1.05     # fixed weights, not learned

    def forward(self, outputs, batch, classifier):
        output = outputs[0]
        hm_loss = F.binary_cross_entropy_with_logits(output["hm"], batch["hm"])
        mask = batch["reg_mask"].unsqueeze(2)
        wh_loss = (F.l1_loss(gather_feat(output["wh"], batch["ind"]), batch["wh"], reduction="none") * mask).mean()
        off_loss = (F.l1_loss(gather_feat(output["reg"], batch["ind"]), batch["reg"], reduction="none") * mask).mean()
        id_head = gather_feat(output["id"], batch["ind"])[batch["reg_mask"] > 0]
        id_head = self.emb_scale * F.normalize(id_head)
        id_target = batch["ids"][batch["reg_mask"] > 0]
        id_loss = self.IDLoss(classifier(id_head), id_target)
        det_loss = self.opt.hm_weight * hm_loss + self.opt.wh_weight * wh_loss + self.opt.off_weight * off_loss
        loss = math.exp(-self.s_det) * det_loss + math.exp(-self.s_id) * id_loss + (self.s_det + self.s_id)
        loss *= 0.5
        return loss, {"loss": loss, "hm_loss": hm_loss, "wh_loss": wh_loss, "off_loss": off_loss, "id_loss": id_loss}


class ModleWithLoss(nn.Module):
    def __init__(self, model, loss):
        super().__init__()
        self.model, self.loss = model, loss

    def forward(self, batch):
        outputs = self.model(batch["input"])
        loss, loss_stats = self.loss(outputs, batch, self.model.id_classifier)
        return outputs[-1], loss, loss_stats


class BaseTrainer:
    def __init__(self, opt, model, optimizer=None):
        self.opt, self.optimizer = opt, optimizer
        self.loss_stats, self.loss = self._get_losses(opt)
        self.model_with_loss = ModleWithLoss(model, self.loss)

    def run_epoch(self, epoch, data_loader):
        self.model_with_loss.train()
        for batch in data_loader:
            output, loss, loss_stats = self.model_with_loss(batch)
            loss = loss.mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        print(f"epoch {epoch}: " + " | ".join(f"{k} {loss_stats[k].item():.4f}" for k in self.loss_stats))


class MotTrainer(BaseTrainer):
    def _get_losses(self, opt):
        return ["loss", "hm_loss", "wh_loss", "off_loss", "id_loss"], MotLoss(opt)


def make_batch(bs=4, size=32):
    hw = (size // 4) ** 2
    return {"input": torch.randn(bs, 3, size, size), "hm": (torch.rand(bs, 1, size // 4, size // 4) > 0.9).float(),
            "ind": torch.randint(0, hw, (bs, opt.max_objs)), "reg_mask": torch.ones(bs, opt.max_objs),
            "wh": torch.rand(bs, opt.max_objs, 4) * 8, "reg": torch.rand(bs, opt.max_objs, 2),
            "ids": torch.randint(0, opt.nID, (bs, opt.max_objs))}


def main(opt):
    model = DLASegLite(opt.heads)
    optimizer = torch.optim.Adam(model.parameters(), opt.lr)
    trainer = MotTrainer(opt, model, optimizer)
    train_loader = [make_batch() for _ in range(4)]
    cls_before = model.id_classifier.weight.detach().clone()
    for epoch in range(1, opt.num_epochs + 1):
        trainer.run_epoch(epoch, train_loader)
    print("id classifier change:", (model.id_classifier.weight - cls_before).abs().max().item())


if __name__ == "__main__":
    main(opt)
