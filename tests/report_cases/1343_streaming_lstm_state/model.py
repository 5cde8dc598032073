import torch
import torch.nn as nn


class ILSTM(nn.Module):
    """Incremental LSTM with a persistent hidden state between calls."""

    def __init__(self, input_size, hidden_size, num_layers=1):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, 1)
        self.hidden_state = None

    def reset_state(self):
        self.hidden_state = None

    def forward(self, x):
        if self.hidden_state is not None:
            h, c = self.hidden_state
            self.hidden_state = (h.detach(), c.detach())
        out, self.hidden_state = self.lstm(x, self.hidden_state)
        return self.fc(out[:, -1])
