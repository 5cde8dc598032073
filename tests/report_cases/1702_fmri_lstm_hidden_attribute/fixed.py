import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)

device = torch.device('cpu')
BATCH_SIZE = 16
WINDOW = 24
N_ROIS = 12
HIDDEN_DIM = 32


class fMRI_LSTM(nn.Module):
    def __init__(self, hidden_dim, input_dim):
        super(fMRI_LSTM, self).__init__()
        self.hidden_dim = hidden_dim
        self.lstm = nn.LSTM(input_dim, hidden_dim, num_layers=1, batch_first=True)
        self.linear = nn.Linear(hidden_dim, 1)
        self.dropout = nn.Dropout(p=0.2)

    def forward(self, x):
        lstm_out, _ = self.lstm(x)
        lstm_out = lstm_out[:, -1, :]
        out = self.dropout(lstm_out)
        return self.linear(out).squeeze(-1)


def load_subjects(n_subjects):
    series = np.random.randn(n_subjects, WINDOW, N_ROIS).astype(np.float32)
    labels = (series[:, :, :3].mean(axis=(1, 2)) > 0).astype(np.float32)
    return torch.from_numpy(series), torch.from_numpy(labels)


def train_lstm(model, X, y, n_epochs=3, lr=1e-3):
    loss_fn = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(n_epochs):
        model.train()
        order = torch.randperm(len(X))
        running, correct = 0.0, 0
        for start in range(0, len(X), BATCH_SIZE):
            idx = order[start:start + BATCH_SIZE]
            inputs, targets = X[idx].to(device), y[idx].to(device)
            logits = model(inputs)
            loss = loss_fn(logits, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
            correct += ((logits > 0).float() == targets).sum().item()
        print(f"epoch {epoch}: loss {running / (len(X) // BATCH_SIZE):.4f} acc {correct / len(X):.3f}")


if __name__ == '__main__':
    X, y = load_subjects(128)
    model = fMRI_LSTM(HIDDEN_DIM, N_ROIS).to(device)
    train_lstm(model, X, y)
