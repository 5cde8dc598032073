"""Adaptive graph convolution + temporal convolution units (2s-AGCN style)."""
import torch
import torch.nn as nn


def skeleton_adjacency(num_joints):
    A = torch.eye(num_joints)
    for j in range(1, num_joints):
        A[j, (j - 1) // 2] = A[(j - 1) // 2, j] = 1.0
    return A / A.sum(-1, keepdim=True)


class UnitGCN(nn.Module):
    def __init__(self, in_ch, out_ch, A):
        super().__init__()
        self.register_buffer("A", A)
        self.PA = nn.Parameter(torch.zeros_like(A))
        self.conv = nn.Conv2d(in_ch, out_ch, 1)
        self.bn = nn.BatchNorm2d(out_ch)

    def forward(self, x):  # x: (N, C, T, V)
        x = torch.einsum("nctv,vw->nctw", x, self.A + self.PA)
        return self.bn(self.conv(x))


class UnitTCN(nn.Module):
    def __init__(self, in_ch, out_ch, kernel_size=3, stride=1):
        super().__init__()
        self.conv = nn.Conv2d(in_ch, out_ch, (kernel_size, 1), (stride, 1), (kernel_size // 2, 0))
        self.bn = nn.BatchNorm2d(out_ch)

    def forward(self, x):
        return self.bn(self.conv(x))


class TCN_GCN_unit(nn.Module):
    def __init__(self, in_ch, out_ch, A, stride=1, residual=True):
        super().__init__()
        self.gcn1 = UnitGCN(in_ch, out_ch, A)
        self.tcn1 = UnitTCN(out_ch, out_ch, stride=stride)
        self.relu = nn.ReLU()
        if not residual:
            self.residual = lambda x: 0
        elif in_ch == out_ch and stride == 1:
            self.residual = lambda x: x
        else:
            self.residual = UnitTCN(in_ch, out_ch, kernel_size=1, stride=stride)

    def forward(self, x):
        x = self.tcn1(self.gcn1(x)) + self.residual(x)
        return self.relu(x).clone()
