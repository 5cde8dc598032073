"""Online forecasting of a streaming sensor signal, window by window."""
import math

import torch
import torch.nn.functional as F

from model import ILSTM

WINDOW = 6
EPOCHS = 2
LR = 5e-3


def make_stream(n=60):
    t = torch.arange(n, dtype=torch.float32)
    return torch.sin(0.3 * t) + 0.1 * torch.randn(n)


def windows(stream):
    for start in range(0, len(stream) - WINDOW - 1, WINDOW):
        x = stream[start:start + WINDOW].view(1, WINDOW, 1)
        y = stream[start + WINDOW].view(1, 1)
        yield x, y


def main():
    torch.manual_seed(0)
    stream = make_stream()
    model = ILSTM(1, 16)
    optimizer = torch.optim.Adam(model.parameters(), lr=LR)
    for epoch in range(EPOCHS):
        model.reset_state()
        errors = []
        for x, y in windows(stream):
            pred = model(x)
            loss = F.mse_loss(pred, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            errors.append(loss.item())
        print(f"epoch {epoch}: rmse {math.sqrt(sum(errors) / len(errors)):.4f} over {len(errors)} windows")


if __name__ == "__main__":
    main()
