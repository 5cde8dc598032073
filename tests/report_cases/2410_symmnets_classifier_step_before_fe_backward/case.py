"""SymmNets-V2 style closed-set domain adaptation solver (two optimizers: the
symmetric classifier and the feature extractor are trained adversarially)."""
import argparse

import torch

import losses
from models import FeatureExtractor, SymmetricClassifier


class SymmNetsV2Solver:
    def __init__(self, cfg):
        self.cfg = cfg
        self.C = cfg["num_classes"]
        self.G = FeatureExtractor(cfg["in_dim"], cfg["feat_dim"])
        self.F = SymmetricClassifier(cfg["feat_dim"], self.C)
        self.optimizer_feature_extractor = torch.optim.SGD(self.G.parameters(), lr=cfg["lr"], momentum=0.9)
        self.optimizer_classifier = torch.optim.SGD(self.F.parameters(), lr=10 * cfg["lr"], momentum=0.9)

    def update_network(self, source_x, source_y, target_x, lam):
        C = self.C
        logits_s = self.F(self.G(source_x))
        logits_t = self.F(self.G(target_x))

        loss_summary_classifier = (losses.task_loss(logits_s, source_y, C)
                                   + losses.domain_discrimination(logits_s, logits_t, C))
        loss_summary_feature_extractor = (losses.category_confusion(logits_s, source_y, C)
                                          + lam * (losses.domain_confusion(logits_t, C)
                                                   + losses.target_entropy(logits_t, C)))

        self.optimizer_classifier.zero_grad()
        loss_summary_classifier.backward(retain_graph=True)
        self.optimizer_classifier.step()
        self.optimizer_feature_extractor.zero_grad()
        loss_summary_feature_extractor.backward()
        self.optimizer_feature_extractor.step()
        return loss_summary_classifier.item(), loss_summary_feature_extractor.item()

    def solve(self, iters):
        torch.manual_seed(0)
        protos = torch.randn(self.C, self.cfg["in_dim"])
        shift = 0.5 * torch.randn(1, self.cfg["in_dim"])
        for it in range(iters):
            ys = torch.randint(0, self.C, (32,))
            xs = protos[ys] + 0.3 * torch.randn(32, self.cfg["in_dim"])
            yt = torch.randint(0, self.C, (32,))
            xt = protos[yt] + shift + 0.3 * torch.randn(32, self.cfg["in_dim"])
            lam = 2.0 / (1.0 + torch.exp(torch.tensor(-10.0 * it / iters)).item()) - 1
            lc, lf = self.update_network(xs, ys, xt, lam)
            if it % 5 == 0:
                print(f"iter {it} classifier {lc:.3f} feature_extractor {lf:.3f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_classes", type=int, default=31)
    parser.add_argument("--in_dim", type=int, default=128)
    parser.add_argument("--feat_dim", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--iters", type=int, default=20)
    args = parser.parse_args()
    SymmNetsV2Solver(vars(args)).solve(args.iters)


if __name__ == "__main__":
    main()
