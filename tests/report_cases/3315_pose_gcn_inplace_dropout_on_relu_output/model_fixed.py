"""Strided spatio-temporal GCN lifting a 2D pose sequence to the 3D pose of the centre frame."""
import torch
import torch.nn as nn
from layers_fixed import TCN_GCN_unit, skeleton_adjacency


class S_AGCN(nn.Module):
    def __init__(self, num_joints=9, filter_widths=(3, 3), channels=32, dropout=0.25):
        super().__init__()
        A = skeleton_adjacency(num_joints)
        self.filter_widths = filter_widths
        self.data_bn = nn.BatchNorm1d(2 * num_joints)
        self.expand_gcn = TCN_GCN_unit(2, channels, A)
        self.drop = nn.Dropout(dropout, inplace=True)
        layers = []
        for fw in filter_widths:
            layers.append(TCN_GCN_unit(channels, channels, A))
            layers.append(TCN_GCN_unit(channels, channels, A, stride=fw, residual=False))
        self.layers_tcngcn = nn.ModuleList(layers)
        self.fc = nn.Conv1d(channels, 3, 1)

    def forward(self, x):  # x: (N, T, V, 2)
        N, T, V, _ = x.shape
        x = self.data_bn(x.reshape(N, T, V * 2).transpose(1, 2)).view(N, V, 2, T).permute(0, 2, 3, 1)
        x = self.expand_gcn(x)
        for i, fw in enumerate(self.filter_widths):
            res = x[:, :, fw // 2::fw, :]
            x = self.drop(self.layers_tcngcn[2 * i](x))
            x = self.drop(self.layers_tcngcn[2 * i + 1](x))
            x = res + x
        return self.fc(x.mean(2)).transpose(1, 2)  # (N, V, 3)
