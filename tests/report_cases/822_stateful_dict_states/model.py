"""Stateful two-stage recurrent model whose state is a dict of tensors/tuples."""
import torch
import torch.nn as nn


class StatefulForecaster(nn.Module):
    def __init__(self, n_in=4, n_hid=20):
        super().__init__()
        self.encoder = nn.LSTMCell(n_in, n_hid)
        self.decoder = nn.GRUCell(n_hid, n_hid)
        self.out = nn.Linear(n_hid, n_in)
        self.n_hid = n_hid

    def init_states(self, batch):
        z = torch.zeros(batch, self.n_hid)
        return {"enc": (z, z.clone()), "dec": z.clone(), "t": 0}

    def forward(self, x_seq, states):
        h, c = states["enc"]
        d = states["dec"]
        preds = []
        for x_t in x_seq:
            h, c = self.encoder(x_t, (h, c))
            d = self.decoder(h, d)
            preds.append(self.out(d))
        new_states = {"enc": (h, c), "dec": d, "t": states["t"] + len(x_seq)}
        return torch.stack(preds), new_states
