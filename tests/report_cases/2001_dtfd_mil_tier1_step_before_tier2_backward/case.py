import argparse
import random

import numpy as np
import torch
import torch.nn as nn

from dtfd_train import train_one_epoch


class DimReduction(nn.Module):
    def __init__(self, n_channels, m_dim=16):
        super().__init__()
        self.fc1 = nn.Linear(n_channels, m_dim, bias=False)
        self.relu1 = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.relu1(self.fc1(x))


class Attention_Gated(nn.Module):
    def __init__(self, L=16, D=8, K=1):
        super().__init__()
        self.attention_V = nn.Sequential(nn.Linear(L, D), nn.Tanh())
        self.attention_U = nn.Sequential(nn.Linear(L, D), nn.Sigmoid())
        self.attention_weights = nn.Linear(D, K)

    def forward(self, x, isNorm=True):
        A = self.attention_weights(self.attention_V(x) * self.attention_U(x))
        A = torch.transpose(A, 1, 0)
        if isNorm:
            A = torch.softmax(A, dim=1)
        return A


class Classifier_1fc(nn.Module):
    def __init__(self, n_channels, n_classes):
        super().__init__()
        self.fc = nn.Linear(n_channels, n_classes)

    def forward(self, x):
        return self.fc(x)


class Attention_with_Classifier(nn.Module):
    def __init__(self, L=16, D=8, K=1, num_cls=2):
        super().__init__()
        self.attention = Attention_Gated(L, D, K)
        self.classifier = Classifier_1fc(L, num_cls)

    def forward(self, x):
        AA = self.attention(x)
        return self.classifier(torch.mm(AA, x))


def main():
    parser = argparse.ArgumentParser(description='DTFD-MIL (toy features)')
    parser.add_argument('--lr', default=1e-3, type=float)
    parser.add_argument('--weight_decay', default=1e-4, type=float)
    parser.add_argument('--grad_clipping', default=5, type=float)
    parser.add_argument('--numGroup', default=3, type=int)
    parser.add_argument('--total_instance', default=3, type=int)
    parser.add_argument('--EPOCH', default=2, type=int)
    parser.add_argument('--mDim', default=16, type=int)
    parser.add_argument('--distill_type', default='AFS', type=str)  ## MaxMinS, MaxS, AFS
    params = parser.parse_args()

    torch.manual_seed(0); random.seed(0); np.random.seed(0)
    in_chn = 32
    slides = [torch.randn(random.randint(9, 14), in_chn) for _ in range(4)]
    labels = torch.LongTensor([0, 1, 1, 0])

    classifier = Classifier_1fc(params.mDim, 2)
    attention = Attention_Gated(params.mDim)
    dimReduction = DimReduction(in_chn, m_dim=params.mDim)
    attCls = Attention_with_Classifier(L=params.mDim, num_cls=2)

    trainable_parameters = []
    trainable_parameters += list(classifier.parameters())
    trainable_parameters += list(attention.parameters())
    trainable_parameters += list(dimReduction.parameters())

    optimizer_adam0 = torch.optim.Adam(trainable_parameters, lr=params.lr, weight_decay=params.weight_decay)
    optimizer_adam1 = torch.optim.Adam(attCls.parameters(), lr=params.lr, weight_decay=params.weight_decay)
    ce_cri = nn.CrossEntropyLoss(reduction='none')

    for ii in range(params.EPOCH):
        l0, l1 = train_one_epoch(slides, labels, classifier, dimReduction, attention, attCls,
                                 optimizer_adam0, optimizer_adam1, ce_cri, params,
                                 numGroup=params.numGroup, total_instance=params.total_instance,
                                 distill=params.distill_type)
        print(f'epoch {ii}: first tier loss {l0:.4f}, second tier loss {l1:.4f}')


if __name__ == '__main__':
    main()
