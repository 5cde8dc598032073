# 2-D heatmap backbone + 3-D root regressor; the 3-D loss is "accumulated"
# over several iterations while the 2-D loss is optimised every iteration.
import torch
import torch.nn as nn
import torch.nn.functional as F


class PoseModel(nn.Module):
    def __init__(self, n_joints=4):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(8, n_joints, 3, padding=1))
        self.root_net = nn.Sequential(nn.Flatten(), nn.Linear(n_joints * 8 * 8, 32),
                                      nn.ReLU(), nn.Linear(32, 3))

    def forward(self, images):
        heatmaps = self.backbone(images)
        root = self.root_net(heatmaps)
        return heatmaps, root


def train_3d(model, opt_2d, opt_3d, batches, accumulation_steps=2):
    opt_3d.zero_grad()
    for i, (images, gt_heatmaps, gt_root) in enumerate(batches):
        heatmaps = model.backbone(images)
        loss_2d = F.mse_loss(heatmaps, gt_heatmaps)

        opt_2d.zero_grad()
        loss_2d.backward()
        opt_2d.step()

        # accumulate *gradients* of the 3-D loss, not the graphs: backward every
        # iteration on the root net only, step every `accumulation_steps`
        root = model.root_net(heatmaps.detach())
        loss_3d = F.l1_loss(root, gt_root)
        (loss_3d / accumulation_steps).backward()
        if (i + 1) % accumulation_steps == 0:
            opt_3d.step()
            opt_3d.zero_grad()
        print(i, loss_2d.item(), loss_3d.item())


if __name__ == "__main__":
    torch.manual_seed(0)
    model = PoseModel()
    opt_2d = torch.optim.Adam(model.backbone.parameters(), lr=1e-3)
    opt_3d = torch.optim.Adam(model.root_net.parameters(), lr=1e-3)
    batches = [(torch.randn(2, 3, 8, 8), torch.rand(2, 4, 8, 8), torch.randn(2, 3))
               for _ in range(4)]
    train_3d(model, opt_2d, opt_3d, batches)
