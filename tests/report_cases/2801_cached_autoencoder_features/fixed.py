import torch
import torch.nn as nn
from encoder_fixed import AutoEncoder, pretrain, encode_dataset

torch.manual_seed(0)

X_train = torch.randn(256, 20)
y_train = (X_train[:, :3].sum(1) > 0).long()
X_val = torch.randn(64, 20)
y_val = (X_val[:, :3].sum(1) > 0).long()


class Classifier(nn.Module):
    def __init__(self, n_code=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_code, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, code, y=None):
        out = self.net(code)
        loss = nn.functional.cross_entropy(out, y) if y is not None else None
        acc = (out.argmax(1) == y).float().mean() if y is not None else None
        return out, loss, acc


autoencoder = AutoEncoder()
print("ae recon", pretrain(autoencoder, X_train))

# codes are computed once for the whole split and reused every iteration
X_train_encoded, X_val_encoded = encode_dataset(autoencoder, X_train, X_val)

model = Classifier()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
batch_size = 64
max_iters = 3
for it in range(max_iters):
    start_ix = 0
    while start_ix < len(X_train_encoded):
        end_ix = min(start_ix + batch_size, len(X_train_encoded))
        out, loss, accuracy = model(X_train_encoded[start_ix:end_ix], y_train[start_ix:end_ix])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        start_ix = end_ix
    with torch.no_grad():
        _, vloss, vacc = model(X_val_encoded, y_val)
    print(it, round(vloss.item(), 4), round(vacc.item(), 3))
