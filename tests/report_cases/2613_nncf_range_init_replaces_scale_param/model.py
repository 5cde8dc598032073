import torch.nn as nn
import torch.nn.functional as F

from quantizer import SymmetricQuantizer


class QuantizedMLP(nn.Module):
    def __init__(self, in_dim=8, hidden=16, n_cls=3):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, n_cls)
        self.act_quant1 = SymmetricQuantizer()
        self.act_quant2 = SymmetricQuantizer()

    def forward(self, x):
        x = self.act_quant1(x)
        x = self.act_quant2(F.relu(self.fc1(x)))
        return self.fc2(x)
