import torch
import torch.nn as nn
import torch.nn.functional as F


class NTMMemory(nn.Module):
    def __init__(self, N=8, M=6):
        super().__init__()
        self.N, self.M = N, M
        self.register_buffer("mem_bias", torch.full((N, M), 1e-3))
        self.memory = None

    def reset(self, batch_size):
        self.memory = self.mem_bias.clone().repeat(batch_size, 1, 1)

    def read(self, w):
        return torch.bmm(w.unsqueeze(1), self.memory).squeeze(1)

    def write(self, w, e, a):
        erase = torch.bmm(w.unsqueeze(-1), e.unsqueeze(1))
        add = torch.bmm(w.unsqueeze(-1), a.unsqueeze(1))
        self.memory = self.memory * (1 - erase) + add

    def address(self, k, beta):
        sim = F.cosine_similarity(self.memory + 1e-16, k.unsqueeze(1) + 1e-16, dim=-1)
        return F.softmax(beta * sim, dim=1)


class NTM(nn.Module):
    def __init__(self, n_in=5, n_out=5, ctrl=32, N=8, M=6):
        super().__init__()
        self.memory = NTMMemory(N, M)
        self.mlp = nn.Sequential(nn.Linear(n_in + M, ctrl), nn.Tanh())
        self.head = nn.Linear(ctrl, M + 1 + M + M)
        self.out = nn.Linear(ctrl + M, n_out)
        self.M = M
        self.prev_read = None

    def init_sequence(self, batch_size):
        self.memory.reset(batch_size)
        self.prev_read = torch.zeros(batch_size, self.M)

    def forward(self, x):
        cat_inp = torch.cat([x, self.prev_read], dim=1)
        h = self.mlp(cat_inp.clone())
        k, beta, e, a = torch.split(self.head(h), [self.M, 1, self.M, self.M], dim=1)
        w = self.memory.address(k, F.softplus(beta))
        r = self.memory.read(w)
        self.memory.write(w, torch.sigmoid(e), torch.tanh(a))
        self.prev_read = r
        return torch.sigmoid(self.out(torch.cat([h, r], dim=1)))
