# Knowledge distillation: the teacher is frozen and in eval mode, the student trains.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc1 = nn.Linear(10, width)
        self.fc2 = nn.Linear(width, 4)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


teacher, student = Net(64), Net(8)
teacher.eval()
teacher.requires_grad_(False)
optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)
T = 4.0
for it in range(3):
    x, y = torch.randn(16, 10), torch.randint(0, 4, (16,))
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    kd = F.kl_div(F.log_softmax(s_logits / T, 1), F.softmax(t_logits / T, 1),
                  reduction="batchmean") * T * T
    loss = 0.5 * kd + 0.5 * F.cross_entropy(s_logits, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
