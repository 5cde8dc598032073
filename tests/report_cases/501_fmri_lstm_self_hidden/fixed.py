import torch
import torch.nn as nn

torch.manual_seed(0)
BATCH, SEQ, FEATS, HID = 8, 12, 16, 10


class FMRILSTM(nn.Module):
    def __init__(self, input_dim, hidden_dim):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.lstm = nn.LSTM(input_dim, hidden_dim, num_layers=1, batch_first=True)
        self.linear = nn.Linear(hidden_dim, 1)
        self.dropout = nn.Dropout(p=0.2)
        self.hidden = self.init_hidden()

    def init_hidden(self):
        return (torch.zeros(1, BATCH, self.hidden_dim),
                torch.zeros(1, BATCH, self.hidden_dim))

    def forward(self, x):
        lstm_out, hidden = self.lstm(x, self.hidden)
        # keep the state for the next batch, but cut it from this batch's graph
        self.hidden = tuple(h.detach() for h in hidden)
        out = self.dropout(lstm_out[:, -1, :])
        return torch.sigmoid(self.linear(out)).squeeze(-1)


def run_training(model, n_batches=4):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.BCELoss()
    for step in range(n_batches):
        x = torch.randn(BATCH, SEQ, FEATS)
        y = torch.randint(0, 2, (BATCH,)).float()
        optimizer.zero_grad()
        pred = model(x)
        loss = criterion(pred, y)
        loss.backward()
        optimizer.step()
        print(f"batch {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    run_training(FMRILSTM(FEATS, HID))
