import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser("Center Loss Example")
parser.add_argument("--batch-size", type=int, default=32)
parser.add_argument("--lr-model", type=float, default=0.001)
parser.add_argument("--lr-cent", type=float, default=0.5)
parser.add_argument("--weight-cent", type=float, default=1)
parser.add_argument("--max-epoch", type=int, default=3)
parser.add_argument("--num-classes", type=int, default=10)
parser.add_argument("--print-freq", type=int, default=4)
args = parser.parse_args([])


class CenterLoss(nn.Module):
    def __init__(self, num_classes=10, feat_dim=2):
        super().__init__()
        self.num_classes = num_classes
        self.feat_dim = feat_dim
        self.centers = nn.Parameter(torch.randn(self.num_classes, self.feat_dim))

    def forward(self, x, labels):
        batch_size = x.size(0)
        distmat = torch.pow(x, 2).sum(dim=1, keepdim=True).expand(batch_size, self.num_classes) + \
            torch.pow(self.centers, 2).sum(dim=1, keepdim=True).expand(self.num_classes, batch_size).t()
        distmat.addmm_(x, self.centers.t(), beta=1, alpha=-2)

        classes = torch.arange(self.num_classes).long()
        labels = labels.unsqueeze(1).expand(batch_size, self.num_classes)
        mask = labels.eq(classes.expand(batch_size, self.num_classes))

        dist = distmat * mask.float()
        loss = dist.clamp(min=1e-12, max=1e+12).sum() / batch_size
        return loss


class ConvNet(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.conv1_1 = nn.Conv2d(1, 16, 3, padding=1)
        self.prelu1_1 = nn.PReLU()
        self.conv2_1 = nn.Conv2d(16, 32, 3, padding=1)
        self.prelu2_1 = nn.PReLU()
        self.fc1 = nn.Linear(32 * 7 * 7, 2)
        self.prelu_fc1 = nn.PReLU()
        self.fc2 = nn.Linear(2, num_classes)

    def forward(self, x):
        x = F.max_pool2d(self.prelu1_1(self.conv1_1(x)), 2)
        x = F.max_pool2d(self.prelu2_1(self.conv2_1(x)), 2)
        x = self.prelu_fc1(self.fc1(x.view(x.size(0), -1)))
        y = self.fc2(x)
        return x, y


def train(model, criterion_xent, criterion_cent, optimizer_model, optimizer_centloss, trainloader, epoch):
    model.train()
    losses = []
    for batch_idx, (data, labels) in enumerate(trainloader):
        features, outputs = model(data)
        loss_xent = criterion_xent(outputs, labels)
        loss_cent = criterion_cent(features, labels)
        loss_cent *= args.weight_cent
        loss = loss_xent + loss_cent
        optimizer_model.zero_grad()
        optimizer_centloss.zero_grad()
        loss.backward()
        optimizer_model.step()
        for param in criterion_cent.parameters():
            param.grad.data *= (1. / args.weight_cent)
        optimizer_centloss.step()

        losses.append(loss.item())
        if (batch_idx + 1) % args.print_freq == 0:
            print("Epoch {} Batch {}/{}\t Loss {:.6f}".format(
                epoch, batch_idx + 1, len(trainloader), sum(losses) / len(losses)))


def main():
    torch.manual_seed(1)
    images = torch.rand(128, 1, 28, 28)
    labels = torch.randint(0, args.num_classes, (128,))
    trainloader = DataLoader(TensorDataset(images, labels), batch_size=args.batch_size, shuffle=True)

    model = ConvNet(num_classes=args.num_classes)
    criterion_xent = nn.CrossEntropyLoss()
    criterion_cent = CenterLoss(num_classes=args.num_classes, feat_dim=2)
    optimizer_model = torch.optim.SGD(model.parameters(), lr=args.lr_model, weight_decay=5e-04, momentum=0.9)
    optimizer_centloss = torch.optim.SGD(criterion_cent.parameters(), lr=args.lr_cent)

    for epoch in range(args.max_epoch):
        train(model, criterion_xent, criterion_cent, optimizer_model, optimizer_centloss, trainloader, epoch)


if __name__ == "__main__":
    main()
