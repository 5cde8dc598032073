import collections
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
learning_rate, gamma, batch_size = 0.0005, 0.98, 16


class ReplayBuffer:
    def __init__(self):
        self.buffer = collections.deque(maxlen=1000)

    def put(self, transition):
        self.buffer.append(transition)

    def sample(self, n):
        mini = random.sample(self.buffer, n)
        s, a, r, s2, done = zip(*mini)
        return (torch.stack(s), torch.tensor(a).unsqueeze(1), torch.tensor(r).unsqueeze(1),
                torch.stack(s2), torch.tensor(done).unsqueeze(1))

    def size(self):
        return len(self.buffer)


class Qnet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(4, 64), nn.Linear(64, 2)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def train(q, q_target, memory, optimizer):
    for i in range(4):
        s, a, r, s_prime, done_mask = memory.sample(batch_size)
        q_out = q(s)
        q_a = q_out.gather(1, a)
        max_q_prime = q_target(s_prime).max(1)[0].unsqueeze(1)
        target = r + gamma * max_q_prime * done_mask
        loss = F.smooth_l1_loss(q_a, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


q, q_target = Qnet(), Qnet()
q_target.load_state_dict(q.state_dict())
memory = ReplayBuffer()
optimizer = torch.optim.Adam(q.parameters(), lr=learning_rate)
for n_epi in range(3):
    s = torch.randn(4)
    for t in range(20):
        a = random.randint(0, 1)
        s_prime = torch.randn(4)
        memory.put((s, a, float(random.random()), s_prime, 1.0))
        s = s_prime
    if memory.size() > batch_size:
        train(q, q_target, memory, optimizer)
    q_target.load_state_dict(q.state_dict())
