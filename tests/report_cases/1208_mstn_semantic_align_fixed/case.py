import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import SemanticCentroidLoss, adaptation_weight

CONFIG = {
    "in_dim": 20,
    "feat_dim": 16,
    "num_classes": 4,
    "batch_size": 32,
    "steps": 6,
    "lr": 0.01,
    "momentum": 0.9,
    "lambda_sem": 0.7,
}


class FeatureExtractor(nn.Module):
    def __init__(self, in_dim, feat_dim):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_dim, 64), nn.ReLU(),
            nn.Linear(64, feat_dim), nn.ReLU(),
        )

    def forward(self, x):
        return self.net(x)


def make_domain(n, in_dim, num_classes, shift):
    labels = torch.randint(0, num_classes, (n,))
    centers = torch.randn(num_classes, in_dim)
    x = centers[labels] + 0.5 * torch.randn(n, in_dim) + shift
    return x, labels


def main(cfg):
    torch.manual_seed(0)
    src_x, src_y = make_domain(256, cfg["in_dim"], cfg["num_classes"], 0.0)
    tgt_x, _ = make_domain(256, cfg["in_dim"], cfg["num_classes"], 0.8)

    extractor = FeatureExtractor(cfg["in_dim"], cfg["feat_dim"])
    classifier = nn.Linear(cfg["feat_dim"], cfg["num_classes"])
    sem_loss_fn = SemanticCentroidLoss(cfg["num_classes"], cfg["feat_dim"])
    params = list(extractor.parameters()) + list(classifier.parameters())
    optimizer = torch.optim.SGD(params, lr=cfg["lr"], momentum=cfg["momentum"])

    history = []
    for step in range(cfg["steps"]):
        si = torch.randint(0, src_x.size(0), (cfg["batch_size"],))
        ti = torch.randint(0, tgt_x.size(0), (cfg["batch_size"],))
        s_feat = extractor(src_x[si])
        t_feat = extractor(tgt_x[ti])
        s_logits = classifier(s_feat)
        t_logits = classifier(t_feat)

        cls_loss = F.cross_entropy(s_logits, src_y[si])
        sem_loss = sem_loss_fn(s_feat, src_y[si], t_feat, t_logits)
        lam = cfg["lambda_sem"] * adaptation_weight(step, cfg["steps"])
        loss = cls_loss + lam * sem_loss

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append({"step": step, "cls": cls_loss.item(), "sem": sem_loss.item()})
        print(history[-1])


if __name__ == "__main__":
    main(CONFIG)
