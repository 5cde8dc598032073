import torch
import torch.nn as nn

from model import LMModel
from utils import batchify, get_batch

torch.manual_seed(0)
VOCAB, BS, BPTT = 30, 4, 6

corpus = torch.randint(0, VOCAB, (200,))
train_data = batchify(corpus, BS)
model = LMModel(VOCAB, n_hidden=16, n_layers=2, bs=BS)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
criterion = nn.CrossEntropyLoss()

for epoch in range(2):
    model.reset()
    total_loss = 0.0
    for i in range(0, train_data.size(0) - 1, BPTT):
        data, targets = get_batch(train_data, i, BPTT)
        optimizer.zero_grad()
        output = model(data)
        loss = criterion(output.view(-1, VOCAB), targets.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        optimizer.step()
        total_loss += loss.item()
    print(f"epoch {epoch} loss {total_loss:.3f}")
