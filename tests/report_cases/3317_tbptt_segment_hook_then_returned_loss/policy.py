"""Recurrent action policy trained on long episodes with truncated BPTT over fixed-length segments."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SegmentedPolicy(nn.Module):
    def __init__(self, obs_dim=12, act_dim=4, n_modes=3, hidden=32, segment_len=8, mse_weight=1.0, ce_weight=0.1):
        super().__init__()
        self.encoder = nn.Linear(obs_dim, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.action_head = nn.Linear(hidden, act_dim)
        self.mode_head = nn.Linear(hidden, n_modes)
        self.segment_len, self.hidden = segment_len, hidden
        self.mse_weight, self.ce_weight = mse_weight, ce_weight
        self.tbptt_backward_fn = None

    def forward_segment(self, obs, state):
        preds, logits = [], []
        for t in range(obs.size(1)):
            state = self.cell(torch.relu(self.encoder(obs[:, t])), state)
            preds.append(self.action_head(state))
            logits.append(self.mode_head(state))
        return torch.stack(preds, 1), torch.stack(logits, 1), state

    def forward_sequence(self, batch):
        obs, actions, modes = batch["obs"], batch["actions"], batch["modes"]
        state = obs.new_zeros(obs.size(0), self.hidden)
        mse_terms, ce_terms = [], []
        for start in range(0, obs.size(1), self.segment_len):
            sl = slice(start, start + self.segment_len)
            pred, logits, state = self.forward_segment(obs[:, sl], state)
            mse = F.mse_loss(pred, actions[:, sl])
            ce = F.cross_entropy(logits.flatten(0, 1), modes[:, sl].flatten())
            if self.tbptt_backward_fn is not None:
                self.tbptt_backward_fn(self.mse_weight * mse + self.ce_weight * ce)
                state = state.detach()
            mse_terms.append(mse)
            ce_terms.append(ce)
        return {"mse": self.mse_weight * torch.stack(mse_terms).mean(),
                "ce": self.ce_weight * torch.stack(ce_terms).mean()}
