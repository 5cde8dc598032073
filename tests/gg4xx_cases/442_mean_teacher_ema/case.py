# Mean teacher: the teacher is an exponential moving average of the student, never
# given to an optimizer; its forward runs under no_grad.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
student = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 3))
teacher = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 3))
teacher.load_state_dict(student.state_dict())
optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)
alpha = 0.99
for step in range(3):
    x, y = torch.randn(12, 10), torch.randint(0, 3, (12,))
    noisy = x + 0.1 * torch.randn_like(x)
    logits = student(x)
    with torch.no_grad():
        t_logits = teacher(noisy)
    loss = F.cross_entropy(logits, y) + F.mse_loss(logits.softmax(1), t_logits.softmax(1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        for tp, sp in zip(teacher.parameters(), student.parameters()):
            tp.mul_(alpha).add_(sp, alpha=1 - alpha)
