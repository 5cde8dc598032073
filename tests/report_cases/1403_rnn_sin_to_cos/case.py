"""Regress cos(t) from sin(t) with a vanilla RNN, feeding one window at a time."""
import math

import torch
from torch import nn

torch.manual_seed(1)

TIME_STEP = 10
INPUT_SIZE = 1
LR = 0.02
N_STEPS = 4


class RNN(nn.Module):
    def __init__(self):
        super(RNN, self).__init__()
        self.rnn = nn.RNN(
            input_size=INPUT_SIZE,
            hidden_size=32,
            num_layers=1,
            batch_first=True,
        )
        self.out = nn.Linear(32, 1)

    def forward(self, x, h_state):
        # x (batch, time_step, input_size)
        # h_state (n_layers, batch, hidden_size)
        r_out, h_state = self.rnn(x, h_state)
        outs = [self.out(r_out[:, t, :]) for t in range(r_out.size(1))]
        return torch.stack(outs, dim=1), h_state


rnn = RNN()
optimizer = torch.optim.Adam(rnn.parameters(), lr=LR)
loss_func = nn.MSELoss()

h_state = None
history = []

for step in range(N_STEPS):
    start, end = step * math.pi, (step + 1) * math.pi
    steps = torch.linspace(start, end, TIME_STEP)
    x = torch.sin(steps)[None, :, None]
    y = torch.cos(steps)[None, :, None]

    prediction, h_state = rnn(x, h_state)

    loss = loss_func(prediction, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    history.append(loss.item())

print("losses:", [round(v, 4) for v in history])
