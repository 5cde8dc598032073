"""Closed-form continuous-time (CfC-style) recurrent cell for sensor time-series forecasting.
The hidden state is carried from one window to the next so the model sees long context;
retain_graph=True was added after 'backward through the graph a second time'."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class CfCCell(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(input_size + hidden_size, 32), nn.LeakyReLU())
        self.ff1 = nn.Linear(32, hidden_size)
        self.ff2 = nn.Linear(32, hidden_size)
        self.time_a = nn.Linear(32, hidden_size)
        self.time_b = nn.Linear(32, hidden_size)

    def forward(self, x, hx, ts):
        z = self.backbone(torch.cat([x, hx], dim=1))
        t_interp = torch.sigmoid(self.time_a(z) * ts + self.time_b(z))
        return torch.tanh(self.ff1(z)) * (1 - t_interp) + t_interp * torch.tanh(self.ff2(z))


class CfC(nn.Module):
    def __init__(self, input_size=3, hidden_size=10, out=1):
        super().__init__()
        self.cell = CfCCell(input_size, hidden_size)
        self.fc = nn.Linear(hidden_size, out)

    def forward(self, x, hx):
        outputs = []
        for t in range(x.shape[1]):
            hx = self.cell(x[:, t], hx, 1.0)
            outputs.append(self.fc(hx))
        return torch.stack(outputs, 1), hx


model = CfC()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
series = torch.randn(17, 24, 3)
target = series[:, :, :1].roll(-1, dims=1)

hx = torch.zeros(17, 10)
for epoch in range(2):
    for start in range(0, 24, 6):
        y_hat, hx = model(series[:, start:start + 6], hx.detach())
        loss = ((y_hat - target[:, start:start + 6]) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("epoch", epoch, "loss", round(loss.item(), 4))
