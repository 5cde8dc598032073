"""Semantic distribution-aware contrastive adaptation (SDCA-like) for segmentation.

A class-conditional estimator keeps running means / (diagonal) covariances of
pixel features; the contrastive loss pulls every pixel toward its class mean
and away from the other class means, with a covariance-aware margin.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class SemanticEstimator:
    def __init__(self, feature_num, class_num):
        self.class_num = class_num
        self.CoVariance = torch.zeros(class_num, feature_num)
        self.Ave = torch.zeros(class_num, feature_num)
        self.Amount = torch.zeros(class_num)

    def update(self, features, labels):
        N, A = features.size()
        C = self.class_num
        NxCxFeatures = features.view(N, 1, A).expand(N, C, A)
        onehot = torch.zeros(N, C).scatter_(1, labels.view(-1, 1), 1)
        NxCxA_onehot = onehot.view(N, C, 1).expand(N, C, A)
        features_by_sort = NxCxFeatures.mul(NxCxA_onehot)

        Amount_CxA = NxCxA_onehot.sum(0)
        Amount_CxA[Amount_CxA == 0] = 1
        ave_CxA = features_by_sort.sum(0) / Amount_CxA
        var_temp = features_by_sort - ave_CxA.expand(N, C, A).mul(NxCxA_onehot)
        var_temp = var_temp.pow(2).sum(0).div(Amount_CxA)

        sum_weight_CV = onehot.sum(0).view(C, 1).expand(C, A)
        weight_CV = sum_weight_CV.div(sum_weight_CV + self.Amount.view(C, 1).expand(C, A))
        weight_CV[weight_CV != weight_CV] = 0
        additional_CV = weight_CV.mul(1 - weight_CV).mul((self.Ave - ave_CxA).pow(2))

        self.CoVariance = self.CoVariance.mul(1 - weight_CV) + var_temp.mul(weight_CV) + additional_CV
        self.Ave = self.Ave.mul(1 - weight_CV) + ave_CxA.mul(weight_CV)
        self.Amount += onehot.sum(0)


def contrastive_loss(feat, labels, Mean, CoVariance, tau=0.1, lam=0.5):
    # logits_k = f . mu_k / tau + lam/2 * sum_a sigma_y,a * (mu_k,a - mu_y,a)^2
    logits = feat @ Mean.t() / tau
    mu_y = Mean[labels]
    sigma_y = CoVariance[labels]
    margin = 0.5 * lam * (sigma_y.unsqueeze(1) * (Mean.unsqueeze(0) - mu_y.unsqueeze(1)).pow(2)).sum(-1)
    return F.cross_entropy(logits + margin, labels)


class SegNet(nn.Module):
    def __init__(self, feat_dim, n_class):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, feat_dim, 3, padding=1), nn.ReLU())
        self.classifier = nn.Conv2d(feat_dim, n_class, 1)

    def forward(self, x):
        feat = self.backbone(x)
        return feat, self.classifier(feat)


def pixels(feat, mask):
    A = feat.size(1)
    return F.normalize(feat.permute(0, 2, 3, 1).reshape(-1, A), dim=1), mask.reshape(-1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--classes", type=int, default=4)
    parser.add_argument("--feat_dim", type=int, default=16)
    parser.add_argument("--iters", type=int, default=6)
    parser.add_argument("--lambda_contr", type=float, default=1.0)
    args = parser.parse_args()

    torch.manual_seed(0)
    model = SegNet(args.feat_dim, args.classes)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    estimator = SemanticEstimator(args.feat_dim, args.classes)

    for it in range(args.iters):
        src_img = torch.randn(2, 3, 16, 16)
        src_mask = torch.randint(0, args.classes, (2, 16, 16))
        tgt_img = torch.randn(2, 3, 16, 16)

        src_feat, src_out = model(src_img)
        tgt_feat, tgt_out = model(tgt_img)
        tgt_pseudo = tgt_out.argmax(1)

        s_feat, s_lbl = pixels(src_feat, src_mask)
        t_feat, t_lbl = pixels(tgt_feat, tgt_pseudo)
        estimator.update(features=s_feat, labels=s_lbl)

        loss_seg = F.cross_entropy(src_out, src_mask)
        loss_contr = contrastive_loss(t_feat, t_lbl, Mean=estimator.Ave, CoVariance=estimator.CoVariance)
        loss = loss_seg + args.lambda_contr * loss_contr

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} seg {loss_seg.item():.3f} contr {loss_contr.item():.3f}")


if __name__ == "__main__":
    main()
