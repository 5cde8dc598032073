import torch
import torch.nn as nn


class fMRI_LSTM(nn.Module):
    """Classifies ROI time courses (subjects x time x regions) into two groups."""

    def __init__(self, input_dim, hidden_dim, batch_size, num_layers=1, dropout=0.2):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.num_layers = num_layers
        self.batch_size = batch_size
        self.lstm = nn.LSTM(input_dim, hidden_dim, num_layers=num_layers, batch_first=True)
        self.dropout = nn.Dropout(p=dropout)
        self.linear = nn.Linear(hidden_dim, 1)
        self.activate = nn.Sigmoid()
        self.hidden = self.init_hidden()

    def init_hidden(self):
        shape = (self.num_layers, self.batch_size, self.hidden_dim)
        return (torch.zeros(shape), torch.zeros(shape))

    def forward(self, x):
        lstm_out, hidden = self.lstm(x, self.hidden)
        self.hidden = tuple(h.detach() for h in hidden)
        last = lstm_out[:, -1, :]
        out = self.dropout(last)
        return self.activate(self.linear(out)).squeeze(-1)
