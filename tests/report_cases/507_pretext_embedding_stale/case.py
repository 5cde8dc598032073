import torch
import torch.nn as nn

from data import make_table, materialize

torch.manual_seed(0)
EMB, BATCH, EPOCHS = 8, 16, 2

texts, numeric, target = make_table(64)
features = materialize(texts, numeric, emb_dim=EMB)

model = nn.Sequential(nn.Linear(EMB + 4, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()

for epoch in range(EPOCHS):
    total = 0.0
    for start in range(0, features.shape[0], BATCH):
        x = features[start:start + BATCH]
        y = target[start:start + BATCH]
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: loss {total:.4f}")
