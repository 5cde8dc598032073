import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Model(nn.Module):
    """Tiny stand-in for the EAC ResNet-50: feature map, GAP, fc; returns output and CAM heatmap."""

    def __init__(self, num_classes=7):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        feat = self.features(x)
        output = self.fc(F.adaptive_avg_pool2d(feat, 1).flatten(1))
        params = list(self.parameters())
        fc_weights = params[-2].view(1, self.fc.out_features, 16, 1, 1)
        hm = (feat.unsqueeze(1) * fc_weights).sum(2)
        return output, hm


def ACLoss(hm1, hm2, grid_l, flip_grid_large):
    hm2 = torch.flip(hm2, dims=[3])
    return F.mse_loss(hm1, hm2)


def train(model, train_loader, optimizer, criterion, lam=5.0):
    running_loss = 0.0
    iter_cnt = 0
    correct_sum = 0
    model.train()
    for imgs1, labels in train_loader:
        iter_cnt += 1
        imgs2 = torch.flip(imgs1, dims=[3])
        output, hm1 = model(imgs1)
        output_flip, hm2 = model(imgs2)
        loss = criterion(output, labels) + lam * ACLoss(hm1, hm2, None, None)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        running_loss += loss
        _, predicts = torch.max(output, 1)
        correct_num = torch.eq(predicts, labels).sum()
        correct_sum += correct_num
    acc = correct_sum.float() / float(len(train_loader) * train_loader[0][0].size(0))
    running_loss = running_loss / iter_cnt
    return acc, running_loss


model = Model()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
train_loader = [(torch.randn(4, 3, 8, 8), torch.randint(0, 7, (4,))) for _ in range(5)]
for epoch in range(2):
    acc, running_loss = train(model, train_loader, optimizer, criterion)
    print("epoch %d acc %.3f loss %s" % (epoch, acc, running_loss))
