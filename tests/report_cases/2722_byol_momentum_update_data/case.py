import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def mlp(i, h, o):
    return nn.Sequential(nn.Linear(i, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Linear(h, o))


class BYOL(nn.Module):
    def __init__(self, base_momentum=0.996):
        super().__init__()
        self.online_net = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), mlp(32, 32, 16))
        self.target_net = copy.deepcopy(self.online_net)
        for p in self.target_net.parameters():
            p.requires_grad = False
        self.predictor = mlp(16, 32, 16)
        self.momentum = base_momentum

    def _momentum_update(self):
        for param_ol, param_tgt in zip(self.online_net.parameters(), self.target_net.parameters()):
            param_tgt.data = param_tgt.data * self.momentum + param_ol.data * (1.0 - self.momentum)

    @torch.no_grad()
    def momentum_update(self):
        self._momentum_update()

    @staticmethod
    def regression(pred, target):
        return 2 - 2 * F.cosine_similarity(pred, target, dim=-1).mean()

    def forward_train(self, img_v1, img_v2):
        proj_online_v1 = self.predictor(self.online_net(img_v1))
        proj_online_v2 = self.predictor(self.online_net(img_v2))
        with torch.no_grad():
            proj_target_v1 = self.target_net(img_v1).clone().detach()
            proj_target_v2 = self.target_net(img_v2).clone().detach()
        return self.regression(proj_online_v1, proj_target_v2) + self.regression(proj_online_v2, proj_target_v1)


model = BYOL()
optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.05, momentum=0.9)
for it in range(5):
    x = torch.randn(16, 20)
    v1, v2 = x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x)
    loss = model.forward_train(v1, v2)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model.momentum_update()
