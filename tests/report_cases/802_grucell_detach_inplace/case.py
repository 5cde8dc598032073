"""Online sequence regression with a GRUCell over one long stream, trained in chunks."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class StreamRegressor(nn.Module):
    def __init__(self, n_in=3, n_hid=24):
        super().__init__()
        self.cell = nn.GRUCell(n_in, n_hid)
        self.readout = nn.Linear(n_hid, 1)
        self.n_hid = n_hid

    def init_state(self, batch):
        return torch.zeros(batch, self.n_hid)

    def forward(self, x_t, h):
        h = self.cell(x_t, h)
        return self.readout(h), h


model = StreamRegressor()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
stream_x = torch.randn(60, 5, 3)          # (time, batch, features)
stream_y = stream_x.sum(-1, keepdim=True).cumsum(0) * 0.1
tbptt = 10
state = {"step": 0, "losses": []}

h = model.init_state(5)
for start in range(0, stream_x.size(0), tbptt):
    loss = 0.0
    for t in range(start, start + tbptt):
        pred, h = model(stream_x[t], h)
        loss = loss + F.mse_loss(pred, stream_y[t])
    loss = loss / tbptt
    opt.zero_grad()
    loss.backward()
    opt.step()
    h.detach_()
    state["step"] += 1
    state["losses"].append(loss.detach())

print(state["step"], torch.stack(state["losses"]).mean().item())
