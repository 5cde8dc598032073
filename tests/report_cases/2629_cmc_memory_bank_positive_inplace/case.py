import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

opt = {"feat_dim": 8, "n_data": 64, "nce_k": 16, "nce_t": 0.07, "nce_m": 0.5, "batch_size": 8, "lr": 0.03}


class NCEAverage(nn.Module):
    """CMC memory bank: positives and negatives are both read from the momentum-updated memory."""

    def __init__(self, inputSize, outputSize, K, T=0.07, momentum=0.5):
        super().__init__()
        self.nLem, self.K = outputSize, K
        self.register_buffer("params", torch.tensor([K, T, -1, -1, momentum]))
        stdv = 1.0 / math.sqrt(inputSize / 3)
        self.register_buffer("memory_l", torch.rand(outputSize, inputSize).mul_(2 * stdv).add_(-stdv))
        self.register_buffer("memory_ab", torch.rand(outputSize, inputSize).mul_(2 * stdv).add_(-stdv))

    def forward(self, l, ab, y, idx=None):
        K, T, momentum = int(self.params[0].item()), self.params[1].item(), self.params[4].item()
        batchSize, inputSize = l.size(0), self.memory_l.size(1)
        if idx is None:
            idx = torch.randint(0, self.nLem, (batchSize, K + 1))
            idx.select(1, 0).copy_(y.data)
        weight_l = torch.index_select(self.memory_l, 0, idx.view(-1)).detach().view(batchSize, K + 1, inputSize)
        out_ab = torch.exp(torch.bmm(weight_l, ab.view(batchSize, inputSize, 1)).div(T))
        weight_ab = torch.index_select(self.memory_ab, 0, idx.view(-1)).detach().view(batchSize, K + 1, inputSize)
        out_l = torch.exp(torch.bmm(weight_ab, l.view(batchSize, inputSize, 1)).div(T))
        # update memory
        with torch.no_grad():
            l_pos = torch.index_select(self.memory_l, 0, y.view(-1))
            l_pos.mul_(momentum)
            l_pos.add_(torch.mul(l, 1 - momentum))
            self.memory_l.index_copy_(0, y, F.normalize(l_pos, dim=1))
            ab_pos = torch.index_select(self.memory_ab, 0, y.view(-1))
            ab_pos.mul_(momentum)
            ab_pos.add_(torch.mul(ab, 1 - momentum))
            self.memory_ab.index_copy_(0, y, F.normalize(ab_pos, dim=1))
        return out_l, out_ab


class NCESoftmaxLoss(nn.Module):
    def forward(self, x):
        x = x.squeeze(-1)
        return F.cross_entropy(x, torch.zeros(x.size(0), dtype=torch.long))


model_l = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, opt["feat_dim"]))
model_ab = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, opt["feat_dim"]))
contrast = NCEAverage(opt["feat_dim"], opt["n_data"], opt["nce_k"], opt["nce_t"], opt["nce_m"])
criterion_l, criterion_ab = NCESoftmaxLoss(), NCESoftmaxLoss()
optimizer = torch.optim.SGD(list(model_l.parameters()) + list(model_ab.parameters()), lr=opt["lr"], momentum=0.9)
data_l, data_ab = torch.randn(opt["n_data"], 12), torch.randn(opt["n_data"], 12)

for epoch in range(2):
    perm = torch.randperm(opt["n_data"])
    for b in range(0, opt["n_data"], opt["batch_size"]):
        index = perm[b:b + opt["batch_size"]]
        feat_l = F.normalize(model_l(data_l[index]), dim=1)
        feat_ab = F.normalize(model_ab(data_ab[index]), dim=1)
        out_l, out_ab = contrast(feat_l, feat_ab, index)
        loss = criterion_l(out_l) + criterion_ab(out_ab)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, round(loss.item(), 4))
