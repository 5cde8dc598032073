"""Tiny multi-view 3D pose model in the spirit of VoxelPose.

A cuboid proposal net (root_net) scores voxels for person roots and a pose
regression net (pose_net) regresses joints around each proposal.  Both read
the same precomputed 2D heatmaps, projected into a coarse voxel cube.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class V2VBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv3d(cin, cout, 3, padding=1)
        self.bn = nn.BatchNorm3d(cout)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


def project_heatmaps(heatmaps, cube=8):
    # heatmaps: [B, V, J, H, W] -> naive "projection": average over views,
    # then lift to a cube by broadcasting along depth
    hm = heatmaps.mean(dim=1)                       # [B, J, H, W]
    hm = F.adaptive_avg_pool2d(hm, cube)            # [B, J, c, c]
    return hm.unsqueeze(2).expand(-1, -1, cube, -1, -1).contiguous()


class CuboidProposalNet(nn.Module):
    def __init__(self, joints):
        super().__init__()
        self.v2v = nn.Sequential(V2VBlock(joints, 16), V2VBlock(16, 16))
        self.out = nn.Conv3d(16, 1, 1)

    def forward(self, cubes):
        return torch.sigmoid(self.out(self.v2v(cubes)))


class PoseRegressionNet(nn.Module):
    def __init__(self, joints):
        super().__init__()
        self.v2v = nn.Sequential(V2VBlock(joints, 16), V2VBlock(16, 16))
        self.head = nn.Linear(16, joints * 3)
        self.joints = joints

    def forward(self, cubes):
        feat = self.v2v(cubes).mean(dim=(2, 3, 4))
        return self.head(feat).view(-1, self.joints, 3)


class MultiPersonPoseNet(nn.Module):
    def __init__(self, joints=5):
        super().__init__()
        self.root_net = CuboidProposalNet(joints)
        self.pose_net = PoseRegressionNet(joints)

    def forward(self, input_heatmaps, targets_3d, root_target):
        cubes = project_heatmaps(input_heatmaps)
        root_cubes = self.root_net(cubes)
        loss_3d = F.mse_loss(root_cubes, root_target)
        pred = self.pose_net(cubes)
        loss_cord = F.l1_loss(pred, targets_3d)
        loss_2d = torch.zeros((), device=pred.device)
        return pred, loss_2d, loss_3d, loss_cord
