"""fMRI time-series classifier (run_training_lstm.py style): an LSTM over
ROI signals predicts a binary label per subject window.  Synthetic data."""
import numpy as np
import torch
import torch.nn as nn

device = torch.device("cpu")
BATCH = 8
N_ROI = 10
WINDOW = 12


class fMRI_LSTM(nn.Module):
    def __init__(self, hidden_dim, input_dim):
        super(fMRI_LSTM, self).__init__()
        self.hidden_dim = hidden_dim
        self.lstm = nn.LSTM(input_dim, hidden_dim, num_layers=1, batch_first=True)
        self.linear = nn.Linear(hidden_dim, 1)
        self.hidden = self.init_hidden()
        self.dropout = nn.Dropout(p=0.2)
        self.activate = nn.Sigmoid()

    def init_hidden(self):
        return (torch.randn(1, BATCH, self.hidden_dim).to(device),
                torch.randn(1, BATCH, self.hidden_dim).to(device))

    def forward(self, x):
        lstm_out, self.hidden = self.lstm(x, self.hidden)
        lstm_out = lstm_out[:, -1, :]
        out = self.dropout(lstm_out)
        return self.activate(self.linear(out)).squeeze(-1)


def load_windows(n_subjects=32, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n_subjects, WINDOW, N_ROI)).astype(np.float32)
    y = (x[:, :, :3].mean(axis=(1, 2)) > 0).astype(np.float32)
    return torch.from_numpy(x), torch.from_numpy(y)


def train(model, optimizer, criterion, x_all, y_all, epochs=2):
    n = x_all.shape[0]
    for epoch in range(epochs):
        perm = torch.randperm(n)
        running, correct = 0.0, 0
        for start in range(0, n, BATCH):
            idx = perm[start:start + BATCH]
            x, y = x_all[idx].to(device), y_all[idx].to(device)
            optimizer.zero_grad()
            pred = model(x)
            loss = criterion(pred, y)
            loss.backward()
            optimizer.step()
            running += loss.item()
            correct += ((pred > 0.5).float() == y).sum().item()
        print(f"epoch {epoch}: loss {running / (n // BATCH):.4f} acc {correct / n:.3f}")


def main():
    torch.manual_seed(0)
    x_all, y_all = load_windows()
    model = fMRI_LSTM(hidden_dim=16, input_dim=N_ROI).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.BCELoss()
    train(model, optimizer, criterion, x_all, y_all)


if __name__ == "__main__":
    main()
