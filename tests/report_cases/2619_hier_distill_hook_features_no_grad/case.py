import torch
import torch.nn.functional as F

from model import FeatureAdaptors, FeatureHookCache, TinyDetector, detection_loss

torch.manual_seed(0)

CFG = {"stages": ["stage1", "stage2"], "distill_weight": 0.5, "lr": 1e-3, "adaptor_lr": 5e-3, "iters": 5}


class DistillTrainer:
    def __init__(self, student, teacher, cfg):
        self.student, self.teacher, self.cfg = student, teacher, cfg
        self.teacher.requires_grad_(False).eval()
        self.s_cache = FeatureHookCache(student, cfg["stages"])
        self.t_cache = FeatureHookCache(teacher, cfg["stages"])
        self.adaptors = FeatureAdaptors({"stage1": 8, "stage2": 16}, {"stage1": 16, "stage2": 32})
        self.optimizer = torch.optim.Adam(student.parameters(), lr=cfg["lr"])
        self.adaptor_optimizer = torch.optim.Adam(self.adaptors.parameters(), lr=cfg["adaptor_lr"])

    def compute_hierarchical_distillation_loss(self, images):
        self.s_cache.clear()
        self.t_cache.clear()
        with torch.no_grad():
            self.student(images)
            self.teacher(images)
            loss = 0.0
            for name in self.cfg["stages"]:
                s = self.adaptors(name, self.s_cache.feats[name])
                loss = loss + F.mse_loss(s, self.t_cache.feats[name])
        return loss

    def train_step(self, images, targets):
        pred = self.student(images)
        det_loss = detection_loss(pred, targets)
        distill_loss = self.compute_hierarchical_distillation_loss(images)
        loss = det_loss + self.cfg["distill_weight"] * distill_loss
        self.optimizer.zero_grad()
        self.adaptor_optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.adaptor_optimizer.step()
        return det_loss.item(), float(distill_loss)


trainer = DistillTrainer(TinyDetector(8), TinyDetector(16), CFG)
for it in range(CFG["iters"]):
    images, targets = torch.randn(2, 3, 16, 16), torch.randn(2, 6, 4, 4)
    print(it, trainer.train_step(images, targets))
