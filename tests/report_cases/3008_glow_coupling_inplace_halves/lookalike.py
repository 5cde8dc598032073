"""Train a small Glow on 8x8 grayscale images by minimizing bits per dimension."""
import torch
from glow_clone import Glow

torch.manual_seed(0)


def train(epochs=3, batch_size=1):
    images = torch.rand(8, 1, 8, 8)
    model = Glow(in_channels=1, hidden_channels=16, K=3)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for i in range(0, len(images), batch_size):
            nll = model(images[i:i + batch_size])
            loss = nll.mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: bpd {loss.item():.4f}")


if __name__ == "__main__":
    train()
