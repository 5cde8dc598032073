import torch
import torch.nn as nn

from fp8 import Fp8Linear

torch.manual_seed(0)


class PoCModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = Fp8Linear(16, 32)
        self.fc2 = Fp8Linear(32, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


model = PoCModel()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = nn.CrossEntropyLoss()

for step in range(5):
    x = torch.randn(8, 16)
    y = torch.randint(0, 4, (8,))
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
