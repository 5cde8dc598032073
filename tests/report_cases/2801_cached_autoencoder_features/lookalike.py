import torch
import torch.nn as nn
from encoder import AutoEncoder, pretrain

torch.manual_seed(0)

X_train = torch.randn(256, 20)
y_train = (X_train[:, :3].sum(1) > 0).long()


class Classifier(nn.Module):
    def __init__(self, n_code=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_code, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, code, y):
        out = self.net(code)
        return out, nn.functional.cross_entropy(out, y)


autoencoder = AutoEncoder()
print("ae recon", pretrain(autoencoder, X_train))

# end-to-end fine-tuning: the encoder is re-run on every batch, so each
# batch builds its own graph through the encoder
model = Classifier()
optimizer = torch.optim.AdamW(
    [{"params": model.parameters()}, {"params": autoencoder.encoder.parameters(), "lr": 1e-3}], lr=1e-2)
batch_size = 64
for it in range(3):
    running = 0.0
    for start_ix in range(0, len(X_train), batch_size):
        xb = X_train[start_ix:start_ix + batch_size]
        yb = y_train[start_ix:start_ix + batch_size]
        code, _ = autoencoder(xb)
        out, loss = model(code, yb)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        running += loss.item()
    print(it, round(running, 4))
