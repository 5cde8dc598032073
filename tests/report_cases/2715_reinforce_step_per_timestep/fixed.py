import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
learning_rate, gamma = 0.0002, 0.98


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.data = []
        self.fc1 = nn.Linear(4, 128)
        self.fc2 = nn.Linear(128, 2)
        self.optimizer = torch.optim.Adam(self.parameters(), lr=learning_rate)

    def forward(self, x):
        return F.softmax(self.fc2(F.relu(self.fc1(x))), dim=0)

    def put_data(self, item):
        self.data.append(item)

    def train_net(self):
        R = 0
        self.optimizer.zero_grad()
        for r, prob in self.data[::-1]:
            R = r + gamma * R
            loss = -torch.log(prob) * R
            loss.backward()
        self.optimizer.step()
        self.data = []


pi = Policy()
for n_epi in range(3):
    s = torch.randn(4)
    for t in range(8):
        prob = pi(s)
        a = Categorical(prob).sample()
        r = float(torch.rand(()) > 0.5)
        pi.put_data((r, prob[a]))
        s = torch.randn(4)
    pi.train_net()
