import torch
import torch.nn as nn
import torch.nn.functional as F


class Learner(nn.Module):
    """MLP whose forward can run on an explicit list of (fast) weights."""

    def __init__(self, config):
        super().__init__()
        self.config = config
        self.vars = nn.ParameterList()
        for name, (out_f, in_f) in config:
            if name == "linear":
                w = nn.Parameter(torch.empty(out_f, in_f))
                nn.init.kaiming_normal_(w)
                self.vars.append(w)
                self.vars.append(nn.Parameter(torch.zeros(out_f)))

    def forward(self, x, vars=None):
        if vars is None:
            vars = self.vars
        idx = 0
        n_linear = sum(1 for name, _ in self.config if name == "linear")
        for i, (name, _) in enumerate(self.config):
            if name == "linear":
                w, b = vars[idx], vars[idx + 1]
                x = F.linear(x, w, b)
                idx += 2
                if idx // 2 < n_linear:
                    x = F.relu(x)
        return x

    def parameters(self, recurse=True):
        return self.vars
