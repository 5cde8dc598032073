import torch
import torch.nn as nn


class FmriLSTM(nn.Module):
    """LSTM over ROI time series, last time step -> linear -> logit."""

    def __init__(self, input_dim, hidden_dim, batch_size, num_layers=1, p_drop=0.2):
        super(FmriLSTM, self).__init__()
        self.hidden_dim = hidden_dim
        self.num_layers = num_layers
        self.batch_size = batch_size
        self.lstm = nn.LSTM(input_dim, hidden_dim, num_layers=num_layers, batch_first=True)
        self.dropout = nn.Dropout(p=p_drop)
        self.linear = nn.Linear(hidden_dim, 1)
        self.hidden = self.init_hidden()

    def init_hidden(self):
        shape = (self.num_layers, self.batch_size, self.hidden_dim)
        return (torch.zeros(shape), torch.zeros(shape))

    def forward(self, x):
        # carry the state across windows, but cut the graph at the window boundary
        lstm_out, hidden = self.lstm(x, self.hidden)
        self.hidden = tuple(h.detach() for h in hidden)
        last = lstm_out[:, -1, :]
        return self.linear(self.dropout(last)).squeeze(-1)
