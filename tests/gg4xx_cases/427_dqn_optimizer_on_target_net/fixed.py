# fixed twin: the optimizer trains the policy network; the target is a copy.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def q_net():
    return nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))


policy_net, target_net = q_net(), q_net()
target_net.load_state_dict(policy_net.state_dict())
optimizer = torch.optim.RMSprop(policy_net.parameters(), lr=1e-3)
gamma = 0.99
for step in range(4):
    s, s2 = torch.randn(16, 4), torch.randn(16, 4)
    a, r = torch.randint(0, 2, (16, 1)), torch.randn(16)
    q = policy_net(s).gather(1, a).squeeze(1)
    with torch.no_grad():
        target = r + gamma * target_net(s2).max(1).values
    loss = F.smooth_l1_loss(q, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 2 == 1:
        target_net.load_state_dict(policy_net.state_dict())
