import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class AutofocusLayer(nn.Module):
    """Parallel dilated convolutions with shared weights, merged by an attention map.

    The attention branch looks at the incoming features but must not steer the
    weights of the main branch, so it receives them detached."""

    def __init__(self, in_ch, out_ch, dilations=(1, 2, 4)):
        super().__init__()
        self.dilations = dilations
        self.conv = nn.Conv3d(in_ch, out_ch, 3, padding=1)
        self.bn = nn.ModuleList([nn.BatchNorm3d(out_ch) for _ in dilations])
        self.convatt1 = nn.Conv3d(in_ch, in_ch // 2, 3, padding=1)
        self.convatt2 = nn.Conv3d(in_ch // 2, len(dilations), 1)

    def forward(self, x):
        att = F.relu(self.convatt1(x.detach()))
        att = F.softmax(self.convatt2(att), dim=1)
        out = 0
        for k, d in enumerate(self.dilations):
            branch = F.conv3d(x, self.conv.weight, self.conv.bias, padding=d, dilation=d)
            branch = self.bn[k](branch)
            out = out + att[:, k:k + 1] * branch
        return F.relu(out)


class AFNSeg(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.conv1 = nn.Conv3d(1, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm3d(8)
        self.af1 = AutofocusLayer(8, 8)
        self.af2 = AutofocusLayer(8, 8)
        self.classifier = nn.Conv3d(8, num_classes, 1)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = self.af1(x)
        x = self.af2(x)
        return self.classifier(x)


model = AFNSeg()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()

for epoch in range(2):
    for it in range(3):
        volume = torch.randn(2, 1, 8, 8, 8)
        label = torch.randint(0, 3, (2, 8, 8, 8))
        loss = criterion(model(volume), label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    att_grad = model.af1.convatt1.weight.grad.abs().sum().item()
    print('epoch %d  loss %.4f  |grad convatt1| %.5f' % (epoch, loss.item(), att_grad))
