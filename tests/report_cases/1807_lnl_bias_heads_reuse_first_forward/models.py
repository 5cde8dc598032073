import torch
import torch.nn as nn
import torch.nn.functional as F


class convnet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, kernel_size=5, padding=2)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, kernel_size=3, padding=1)
        self.bn2 = nn.BatchNorm2d(32)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        feat = F.relu(self.bn2(self.conv2(x)))
        logits = self.fc(self.pool(feat).flatten(1))
        return feat, logits


class Predictor(nn.Module):
    def __init__(self, input_ch=32, num_classes=8):
        super().__init__()
        self.pred_conv1 = nn.Conv2d(input_ch, input_ch, kernel_size=3, padding=1)
        self.pred_bn1 = nn.BatchNorm2d(input_ch)
        self.pred_conv2 = nn.Conv2d(input_ch, num_classes, kernel_size=3, padding=1)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x):
        x = F.relu(self.pred_bn1(self.pred_conv1(x)))
        x = self.pred_conv2(x).mean(dim=(2, 3))
        return x, self.softmax(x)
