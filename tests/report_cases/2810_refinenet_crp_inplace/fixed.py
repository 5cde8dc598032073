import torch
import torch.nn as nn
import torch.nn.functional as F
from blocks_fixed import ResidualConvUnit, MultiResolutionFusion, ChainedResidualPool

torch.manual_seed(0)


class RefineNetBlock(nn.Module):
    def __init__(self, features, n_inputs):
        super().__init__()
        for i in range(n_inputs):
            self.add_module("rcu{}".format(i), nn.Sequential(ResidualConvUnit(features), ResidualConvUnit(features)))
        self.mrf = MultiResolutionFusion(features, n_inputs) if n_inputs > 1 else None
        self.crp = ChainedResidualPool(features)
        self.output_conv = ResidualConvUnit(features)

    def forward(self, *xs):
        xs = [self.__getattr__("rcu{}".format(i))(x) for i, x in enumerate(xs)]
        out = self.mrf(*xs) if self.mrf is not None else xs[0]
        out = self.crp(out)
        return self.output_conv(out)


class TinyRefineNet(nn.Module):
    def __init__(self, n_classes=3, features=8):
        super().__init__()
        self.layer1 = nn.Conv2d(3, features, 3, stride=2, padding=1)
        self.layer2 = nn.Conv2d(features, features, 3, stride=2, padding=1)
        self.refine2 = RefineNetBlock(features, 1)
        self.refine1 = RefineNetBlock(features, 2)
        self.clf = nn.Conv2d(features, n_classes, 1)

    def forward(self, x):
        l1 = F.relu(self.layer1(x))
        l2 = F.relu(self.layer2(l1))
        r2 = self.refine2(l2)
        r1 = self.refine1(l1, r2)
        return F.interpolate(self.clf(r1), size=x.shape[-2:], mode="bilinear", align_corners=False)


model = TinyRefineNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for it in range(3):
    img = torch.randn(2, 3, 16, 16)
    mask = torch.randint(0, 3, (2, 16, 16))
    optimizer.zero_grad()
    loss = F.cross_entropy(model(img), mask)
    loss.backward()
    optimizer.step()
    print(it, round(loss.item(), 4))
