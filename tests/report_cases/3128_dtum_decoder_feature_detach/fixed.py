"""Multi-frame infrared small-target detection (DTUM-style): a direction-coded temporal U-shape
module turns a short clip into a target-probability map for the last frame."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def conv_bn(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout))


class DTUM(nn.Module):
    def __init__(self, in_ch=4, ch=8, frames=3):
        super().__init__()
        self.temporal = nn.Conv3d(1, in_ch, (frames, 3, 3), padding=(0, 1, 1))
        self.enc1, self.enc2 = conv_bn(in_ch, ch), conv_bn(ch, ch)
        self.enc3, self.enc4 = conv_bn(ch, ch), conv_bn(ch, ch)
        self.conv3_2, self.conv2_2, self.conv1_2 = conv_bn(2 * ch, ch), conv_bn(2 * ch, ch), conv_bn(2 * ch, ch)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2)
        self.up = nn.Upsample(scale_factor=2)
        self.final = nn.Conv2d(ch + 1, 1, 1)

    def forward(self, x):                                     # x: (B, 1, T, H, W)
        f = self.relu(self.temporal(x).squeeze(2))
        x_1 = self.relu(self.enc1(f))
        x_2 = self.relu(self.enc2(self.pool(x_1)))
        x_3 = self.relu(self.enc3(self.pool(x_2)))
        x_4 = self.relu(self.enc4(self.pool(x_3)))
        o_3 = self.relu(self.conv3_2(torch.cat([self.up(x_4), x_3], dim=1)))
        o_2 = self.relu(self.conv2_2(torch.cat([self.up(o_3), x_2], dim=1)))
        o_1 = self.relu(self.conv1_2(torch.cat([self.up(o_2), x_1], dim=1)))
        return self.final(torch.cat([o_1, x[:, :, -1]], dim=1))


def soft_iou_loss(logits, target, smooth=1.0):
    pred = torch.sigmoid(logits)
    inter = (pred * target).sum()
    return 1 - (inter + smooth) / (pred.sum() + target.sum() - inter + smooth)


def train(epochs=3):
    net = DTUM()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    clips = torch.rand(8, 1, 3, 16, 16)
    masks = torch.zeros(8, 1, 16, 16)
    masks[:, :, 7:9, 7:9] = 1
    for epoch in range(epochs):
        for i in range(0, 8, 4):
            loss = soft_iou_loss(net(clips[i:i + 4]), masks[i:i + 4])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        no_grad = [n for n, p in net.named_parameters() if p.grad is None or p.grad.abs().sum() == 0]
        print(f"epoch {epoch} loss {loss.item():.4f} params without gradient: {len(no_grad)}")


if __name__ == "__main__":
    train()
