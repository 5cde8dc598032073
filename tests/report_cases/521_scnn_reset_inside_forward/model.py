import torch
import torch.nn as nn

from neurons import Leaky, reset


class SCNN(nn.Module):
    def __init__(self, num_steps=5, n_classes=4):
        super().__init__()
        self.num_steps = num_steps
        self.net = nn.Sequential(
            nn.Conv2d(1, 4, 3, padding=1), nn.MaxPool2d(2), Leaky(),
            nn.Conv2d(4, 8, 3, padding=1), nn.MaxPool2d(2), Leaky(),
            nn.Flatten(), nn.Linear(8 * 2 * 2, n_classes), Leaky(),
        )
        self.out = self.net[-1]

    def forward(self, x):
        spk_rec, mem_rec = [], []
        reset(self.net)  # every sample sequence starts from rest
        for _ in range(self.num_steps):
            spk_rec.append(self.net(x))
            mem_rec.append(self.out.mem)
        return torch.stack(spk_rec), torch.stack(mem_rec)
