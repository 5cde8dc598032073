import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RCNNCell(nn.Module):
    """Physics-encoded recurrent conv cell (pi-block of parallel convs)."""
    def __init__(self, ch=2, hidden=8, dt=0.1):
        super().__init__()
        self.dt = dt
        self.w1 = nn.Conv2d(ch, hidden, 3, padding=1, padding_mode="circular")
        self.w2 = nn.Conv2d(ch, hidden, 3, padding=1, padding_mode="circular")
        self.w3 = nn.Conv2d(ch, hidden, 3, padding=1, padding_mode="circular")
        self.out = nn.Conv2d(hidden, ch, 1)

    def forward(self, h):
        return h + self.dt * self.out(self.w1(h) * self.w2(h) * self.w3(h))


class PeRCNN(nn.Module):
    def __init__(self, step=6):
        super().__init__()
        self.step = step
        self.cell = RCNNCell()
        self.init_state_low = nn.Parameter(torch.randn(1, 2, 8, 8) * 0.1)
        self.init_refine = nn.Conv2d(2, 2, 3, padding=1, padding_mode="circular")

    def upsample_state(self):
        up = F.interpolate(self.init_state_low, size=(16, 16), mode="bicubic", align_corners=False)
        return up + self.init_refine(up)

    def forward(self, init_state):
        h, outputs = init_state, [init_state]
        for _ in range(self.step):
            h = self.cell(h)
            outputs.append(h)
        return torch.cat(outputs, dim=0)


truth = torch.randn(7, 2, 16, 16) * 0.1
model = PeRCNN()
optimizer = torch.optim.Adam(model.cell.parameters(), lr=1e-3)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=50, gamma=0.97)

with torch.no_grad():
    init_state = model.upsample_state()  # fixed initial condition, built once without graph
model.init_state_low.requires_grad_(False)
model.init_refine.requires_grad_(False)
for epoch in range(5):
    optimizer.zero_grad()
    output = model(init_state)
    loss = F.mse_loss(output, truth)
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(epoch, round(loss.item(), 6))
