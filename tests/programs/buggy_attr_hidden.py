import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(3, 8, batch_first=True)
        self.head = nn.Linear(8, 2)
        self.h = None

    def forward(self, x):
        out, self.h = self.rnn(x, self.h)
        return self.head(out)


model = Tagger()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(2, 5, 3), torch.randint(0, 2, (2, 5))
    loss = nn.functional.cross_entropy(model(x).reshape(-1, 2), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
