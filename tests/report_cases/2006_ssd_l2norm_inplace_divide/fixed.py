"""RFB/SSD-style detector training (toy sizes): VGG base with an L2Norm on conv4_3."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.init as init
import torch.optim as optim


class L2Norm(nn.Module):
    def __init__(self, n_channels, scale):
        super(L2Norm, self).__init__()
        self.n_channels = n_channels
        self.gamma = scale or None
        self.eps = 1e-10
        self.weight = nn.Parameter(torch.Tensor(self.n_channels))
        self.reset_parameters()

    def reset_parameters(self):
        init.constant_(self.weight, self.gamma)

    def forward(self, x):
        norm = x.pow(2).sum(dim=1, keepdim=True).sqrt() + self.eps
        x = torch.div(x, norm)
        out = self.weight.unsqueeze(0).unsqueeze(2).unsqueeze(3).expand_as(x) * x
        return out


def vgg(cfg, i, batch_norm=False):
    layers = []
    in_channels = i
    for v in cfg:
        if v == 'M':
            layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
        else:
            conv2d = nn.Conv2d(in_channels, v, kernel_size=3, padding=1)
            layers += [conv2d, nn.ReLU(inplace=True)]
            in_channels = v
    return layers


base = [8, 'M', 16, 16]
extras_cfg = [16, 'S', 16]
mbox = [4, 4]


class SSD(nn.Module):
    def __init__(self, phase, size, base, extras, head, num_classes):
        super(SSD, self).__init__()
        self.phase = phase
        self.num_classes = num_classes
        self.size = size
        self.vgg = nn.ModuleList(base)
        self.L2Norm = L2Norm(16, 20)
        self.extras = nn.ModuleList(extras)
        self.loc = nn.ModuleList(head[0])
        self.conf = nn.ModuleList(head[1])

    def forward(self, x):
        sources, loc, conf = [], [], []
        for k in range(len(self.vgg)):
            x = self.vgg[k](x)
        s = self.L2Norm(x)
        sources.append(s)
        for k, v in enumerate(self.extras):
            x = F.relu(v(x), inplace=True)
        sources.append(x)
        for (x, l, c) in zip(sources, self.loc, self.conf):
            loc.append(l(x).permute(0, 2, 3, 1).contiguous())
            conf.append(c(x).permute(0, 2, 3, 1).contiguous())
        loc = torch.cat([o.view(o.size(0), -1) for o in loc], 1)
        conf = torch.cat([o.view(o.size(0), -1) for o in conf], 1)
        return loc.view(loc.size(0), -1, 4), conf.view(conf.size(0), -1, self.num_classes)


def build_net(phase, size=16, num_classes=3):
    vgg_layers = vgg(base, 3)
    extras = [nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1)]
    loc_layers = [nn.Conv2d(16, mbox[0] * 4, 3, padding=1), nn.Conv2d(16, mbox[1] * 4, 3, padding=1)]
    conf_layers = [nn.Conv2d(16, mbox[0] * num_classes, 3, padding=1),
                   nn.Conv2d(16, mbox[1] * num_classes, 3, padding=1)]
    return SSD(phase, size, vgg_layers, extras, (loc_layers, conf_layers), num_classes)


class MultiBoxLoss(nn.Module):
    def forward(self, predictions, targets):
        loc_data, conf_data = predictions
        loc_t, conf_t = targets
        loss_l = F.smooth_l1_loss(loc_data, loc_t, reduction='sum') / loc_t.size(0)
        loss_c = F.cross_entropy(conf_data.view(-1, conf_data.size(-1)), conf_t.view(-1))
        return loss_l, loss_c


torch.manual_seed(0)
num_classes = 3
net = build_net('train', 16, num_classes)
optimizer = optim.SGD(net.parameters(), lr=1e-3, momentum=0.9, weight_decay=5e-4)
criterion = MultiBoxLoss()

num_priors = 8 * 8 * mbox[0] + 4 * 4 * mbox[1]
max_iter = 4
net.train()
for iteration in range(max_iter):
    load_t0 = time.time()
    images = torch.randn(2, 3, 16, 16)
    targets = (torch.randn(2, num_priors, 4), torch.randint(0, num_classes, (2, num_priors)))
    out = net(images)
    optimizer.zero_grad()
    loss_l, loss_c = criterion(out, targets)
    loss = loss_l + loss_c
    loss.backward()
    optimizer.step()
    load_t1 = time.time()
    print('Iter ' + repr(iteration) + '/' + repr(max_iter) +
          ' || L: %.4f C: %.4f||' % (loss_l.item(), loss_c.item()) +
          'Batch time: %.4f sec. ||' % (load_t1 - load_t0))
