# Segmentation loss with a boundary-distance weight map that is computed
# under no_grad from detached predictions; the loss itself stays differentiable.
import torch
import torch.nn as nn
import torch.nn.functional as F


class BoundaryWeightedBCE(nn.Module):
    def __init__(self, kernel=5):
        super().__init__()
        self.kernel = kernel

    @torch.no_grad()
    def distance_weight(self, prob, target):
        # rough distance-to-boundary proxy: local disagreement of the masks
        pred_mask = (prob > 0.5).float()
        edge_t = F.max_pool2d(target, self.kernel, 1, self.kernel // 2) - target
        edge_p = F.max_pool2d(pred_mask, self.kernel, 1, self.kernel // 2) - pred_mask
        return 1.0 + edge_t + edge_p

    def forward(self, logits, target):
        prob = torch.sigmoid(logits)
        weight = self.distance_weight(prob.detach(), target)
        return F.binary_cross_entropy_with_logits(logits, target, weight=weight)


net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
criterion = BoundaryWeightedBCE()
optimizer = torch.optim.SGD(net.parameters(), lr=0.05)

torch.manual_seed(0)
img = torch.randn(2, 1, 16, 16)
mask = (img > 0.3).float()
for it in range(4):
    optimizer.zero_grad()
    loss = criterion(net(img), mask)
    loss.backward()
    optimizer.step()
    print(it, loss.item())
