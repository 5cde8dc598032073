"""One-class Deep SVDD anomaly detector (hypersphere around the normal data)."""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)


class InnerDeepSVDD(nn.Module):
    def __init__(self, n_features, hidden_neurons=(32, 16), use_ae=False):
        super().__init__()
        layers, prev = [], n_features
        for h in hidden_neurons:
            layers += [nn.Linear(prev, h, bias=False), nn.ReLU()]
            prev = h
        self.encoder = nn.Sequential(*layers)
        self.use_ae = use_ae
        self.decoder = nn.Linear(prev, n_features, bias=False) if use_ae else None

    def forward(self, x):
        z = self.encoder(x)
        return (z, self.decoder(z)) if self.use_ae else (z, None)


class DeepSVDD:
    def __init__(self, n_features, epochs=5, batch_size=32, l2_regularizer=1e-6, lr=1e-3, use_ae=False):
        self.model_ = InnerDeepSVDD(n_features, use_ae=use_ae)
        self.epochs, self.batch_size = epochs, batch_size
        self.l2_regularizer, self.lr, self.use_ae = l2_regularizer, lr, use_ae
        self.c = None

    def _init_c(self, X, eps=0.1):
        with torch.no_grad():
            z, _ = self.model_(X)
            c = z.mean(0)
        c[(c.abs() < eps) & (c < 0)] = -eps
        c[(c.abs() < eps) & (c >= 0)] = eps
        return c

    def fit(self, X):
        X = torch.as_tensor(X, dtype=torch.float32)
        self.c = self._init_c(X)
        loader = torch.utils.data.DataLoader(X, batch_size=self.batch_size, shuffle=True)
        optimizer = torch.optim.Adam(self.model_.parameters(), lr=self.lr, weight_decay=self.l2_regularizer)
        w_d = self.l2_regularizer * sum(torch.linalg.norm(w).item() for w in self.model_.parameters())
        for epoch in range(self.epochs):
            epoch_loss = 0.0
            for batch_x in loader:
                z, recon = self.model_(batch_x)
                dist = torch.sum((z - self.c) ** 2, dim=-1)
                loss = torch.mean(dist) + w_d
                if self.use_ae:
                    loss = loss + torch.mean(torch.square(recon - batch_x))
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                epoch_loss += loss.item()
            print(f"epoch {epoch}: loss {epoch_loss / len(loader):.5f}")
        return self

    def decision_function(self, X):
        with torch.no_grad():
            z, _ = self.model_(torch.as_tensor(X, dtype=torch.float32))
            return torch.sum((z - self.c) ** 2, dim=-1).numpy()


if __name__ == "__main__":
    X_train = np.random.randn(256, 10)
    X_test = np.concatenate([np.random.randn(20, 10), np.random.randn(5, 10) * 4 + 3])
    det = DeepSVDD(n_features=10).fit(X_train)
    print("outlier scores:", det.decision_function(X_test)[-5:].round(3))
