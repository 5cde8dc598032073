"""DiMP-like target-classifier training (pytracking LTR): an actor computes the bounding-box
IoU loss and the target-classification loss and returns them as stats."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from ltr_trainer import LTRTrainer

torch.manual_seed(0)


class DiMPNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.classifier = nn.Conv2d(8, 1, 3, padding=1)
        self.bb_regressor = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1))

    def forward(self, train_imgs, test_imgs):
        feat = self.backbone(test_imgs)
        return self.classifier(feat), self.bb_regressor(feat).squeeze(1)


class DiMPActor:
    def __init__(self, net, loss_weight):
        self.net, self.loss_weight = net, loss_weight

    def train(self, mode=True):
        self.net.train(mode)

    def __call__(self, data):
        target_scores, iou_pred = self.net(data["train_images"], data["test_images"])
        loss_target_classifier = F.mse_loss(target_scores, data["test_label"])
        loss_bb_ce = F.mse_loss(iou_pred, data["proposal_iou"])
        loss = self.loss_weight["iou"] * loss_bb_ce + self.loss_weight["test_clf"] * loss_target_classifier
        stats = {"Loss/total": loss.item(), "Loss/iou": loss_bb_ce.item(),
                 "Loss/target_clf": loss_target_classifier.item()}
        return loss, stats


def make_loader(n=5):
    return [{"train_images": torch.randn(2, 3, 8, 8), "test_images": torch.randn(2, 3, 8, 8),
             "test_label": torch.rand(2, 1, 8, 8), "proposal_iou": torch.rand(2)} for _ in range(n)]


if __name__ == "__main__":
    net = DiMPNet()
    actor = DiMPActor(net, {"iou": 1.0, "test_clf": 100.0})
    optimizer = torch.optim.Adam(net.parameters(), lr=2e-4)
    LTRTrainer(actor, make_loader(), optimizer).train(max_epochs=1)
