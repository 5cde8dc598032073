"""Cross pseudo supervision (semi-supervised segmentation, toy): two differently initialised
branches supervise each other with hard (argmax) pseudo labels on unlabeled pixels."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class SingleNetwork(nn.Module):
    def __init__(self, num_classes, width=8):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
                                      nn.Conv2d(width, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(inplace=True))
        self.head = nn.Conv2d(width, num_classes, 1)

    def forward(self, x):
        return self.head(self.backbone(x))


class Network(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.branch1 = SingleNetwork(num_classes)
        self.branch2 = SingleNetwork(num_classes)

    def forward(self, data, step=1):
        if not self.training:
            return self.branch1(data)
        if step == 1:
            return self.branch1(data)
        elif step == 2:
            return self.branch2(data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--num_classes', type=int, default=3)
    parser.add_argument('--cps_weight', type=float, default=1.5)
    parser.add_argument('--niters_per_epoch', type=int, default=3)
    parser.add_argument('--nepochs', type=int, default=2)
    config = parser.parse_args()

    torch.manual_seed(0)
    criterion = nn.CrossEntropyLoss(reduction='mean', ignore_index=255)
    model = Network(config.num_classes)
    optimizer_l = torch.optim.SGD(model.branch1.parameters(), lr=1e-2, momentum=0.9)
    optimizer_r = torch.optim.SGD(model.branch2.parameters(), lr=1e-2, momentum=0.9)

    for epoch in range(config.nepochs):
        model.train()
        sum_loss_sup, sum_cps = 0, 0
        for idx in range(config.niters_per_epoch):
            imgs = torch.randn(2, 3, 8, 8)
            gts = torch.randint(0, config.num_classes, (2, 8, 8))
            unsup_imgs = torch.randn(2, 3, 8, 8)

            optimizer_l.zero_grad()
            optimizer_r.zero_grad()

            pred_sup_l = model(imgs, step=1)
            pred_unsup_l = model(unsup_imgs, step=1)
            pred_sup_r = model(imgs, step=2)
            pred_unsup_r = model(unsup_imgs, step=2)

            ### cps loss ###
            pred_l = torch.cat([pred_sup_l, pred_unsup_l], dim=0)
            pred_r = torch.cat([pred_sup_r, pred_unsup_r], dim=0)
            _, max_l = torch.max(pred_l, dim=1)
            _, max_r = torch.max(pred_r, dim=1)
            max_l = max_l.long()
            max_r = max_r.long()
            cps_loss = criterion(pred_l, max_r) + criterion(pred_r, max_l)
            cps_loss = cps_loss * config.cps_weight

            ### standard cross entropy loss ###
            loss_sup = criterion(pred_sup_l, gts)
            loss_sup_r = criterion(pred_sup_r, gts)

            loss = loss_sup + loss_sup_r + cps_loss
            loss.backward()
            optimizer_l.step()
            optimizer_r.step()

            sum_loss_sup += loss_sup.item()
            sum_cps += cps_loss.item()
        print('epoch %d loss_sup=%.4f loss_cps=%.4f' % (epoch, sum_loss_sup / config.niters_per_epoch,
                                                        sum_cps / config.niters_per_epoch))


if __name__ == '__main__':
    main()
