# fixed twin: training calls the module itself; the no_grad helper serves inference.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(7, 16)
        self.fc2 = nn.Linear(16, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))

    @torch.no_grad()
    def score(self, x):
        return self(x).squeeze(1)


scorer = Scorer()
opt = torch.optim.Adam(scorer.parameters(), lr=1e-3)
for step in range(3):
    x, y = torch.randn(9, 7), torch.rand(9)
    loss = nn.functional.binary_cross_entropy_with_logits(scorer(x).squeeze(1), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(scorer.score(torch.randn(2, 7)))
