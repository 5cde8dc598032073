import torch
import torch.nn as nn

from base_model import BaseModel
from trainer import Trainer

torch.manual_seed(0)


class SimpleLSTMForecaster(BaseModel):
    def __init__(self, input_size=3, hidden_size=16, prediction_length=4, **kwargs):
        super().__init__(**kwargs)
        self.lstm = nn.LSTM(input_size, hidden_size, batch_first=True)
        self.head = nn.Linear(hidden_size, prediction_length)

    def forward(self, x):
        _, (h, _) = self.lstm(x["encoder_cont"])
        return {"prediction": self.head(h[-1])}

    def training_step(self, batch, batch_idx):
        x, y = batch
        log, out = self.step(x, y, batch_idx)
        log["prediction"] = out["prediction"]
        # keep only detached values for the epoch-end aggregation
        self.training_step_outputs.append({k: (v.detach() if torch.is_tensor(v) else v) for k, v in log.items()})
        return log


def make_batches(n=5, bs=8, enc_len=6, pred_len=4):
    return [({"encoder_cont": torch.randn(bs, enc_len, 3)}, torch.randn(bs, pred_len)) for _ in range(n)]


model = SimpleLSTMForecaster(learning_rate=1e-3)
Trainer(max_epochs=2).fit(model, train_dataloaders=make_batches())
