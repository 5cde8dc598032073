import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_net(width):
    return nn.ModuleDict({"feat": nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU()),
                          "cls": nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(width, 10))})


def distillation_loss(source, target, margin):
    target = torch.max(target, margin)
    loss = F.mse_loss(source, target, reduction="none")
    loss = loss * ((source > target) | (target > 0)).float()
    return loss.sum()


class Distiller(nn.Module):
    def __init__(self, t_net, s_net):
        super().__init__()
        self.t_net, self.s_net = t_net, s_net
        self.connector = nn.Sequential(nn.Conv2d(8, 16, 1), nn.BatchNorm2d(16))
        self.register_buffer("margin", torch.full((1, 16, 1, 1), -0.5))

    def forward(self, x):
        t_feat = self.t_net["feat"](x)
        s_feat = self.s_net["feat"](x)
        s_out = self.s_net["cls"](s_feat)
        loss_distill = distillation_loss(self.connector(s_feat), t_feat.detach(), self.margin) / 1000
        return s_out, loss_distill


t_net, s_net = make_net(16), make_net(8)
d_net = Distiller(t_net, s_net)
optimizer = torch.optim.SGD(list(s_net.parameters()) + list(d_net.connector.parameters()), lr=0.1, momentum=0.9)
d_net.train()
d_net.s_net.train()
d_net.t_net.train()
for i in range(4):
    inputs, targets = torch.randn(8, 3, 8, 8), torch.randint(0, 10, (8,))
    outputs, loss_distill = d_net(inputs)
    loss_CE = F.cross_entropy(outputs, targets)
    loss = loss_CE + loss_distill.sum() / 8
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
