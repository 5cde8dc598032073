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


def train_3d(model, optimizer, batches, accumulation_steps=2):
    accu_loss_3d = 0
    for i, (images, gt_heatmaps, gt_root) in enumerate(batches):
        heatmaps, root = model(images)
        loss_2d = F.mse_loss(heatmaps, gt_heatmaps)
        loss_3d = F.l1_loss(root, gt_root)

        optimizer.zero_grad()
        loss_2d.backward(retain_graph=True)  # heatmaps are still needed by the 3-D loss
        optimizer.step()

        accu_loss_3d += loss_3d / accumulation_steps
        if (i + 1) % accumulation_steps == 0:
            optimizer.zero_grad()
            accu_loss_3d.backward()
            optimizer.step()
            accu_loss_3d = 0
        print(i, loss_2d.item(), loss_3d.item())


if __name__ == "__main__":
    torch.manual_seed(0)
    model = PoseModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    batches = [(torch.randn(2, 3, 8, 8), torch.rand(2, 4, 8, 8), torch.randn(2, 3))
               for _ in range(4)]
    train_3d(model, optimizer, batches)
