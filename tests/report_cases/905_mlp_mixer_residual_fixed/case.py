"""Train the residual MLP backbone on random token sequences."""
import torch
import torch.nn as nn

from model import Backbone
from utils import random_batches, log


def main():
    torch.manual_seed(0)
    model = Backbone()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for step, (tokens, labels) in enumerate(random_batches(2)):
            optimizer.zero_grad()
            logits = model(tokens)
            loss = criterion(logits, labels)
            loss.backward()
            optimizer.step()
            log(epoch, step, loss.item())


if __name__ == "__main__":
    main()
