"""CTR model base class in the style of DeepCTR-Torch (v0.2.1): regularization on the
embedding and linear weights is registered at construction, and fit() adds it to the
batch loss. backward() uses retain_graph=True because the regularization term is
reused by every batch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class BaseModel(nn.Module):
    def __init__(self, n_sparse=3, vocab=20, emb_dim=4, l2_reg_embedding=1e-5, l2_reg_linear=1e-5):
        super().__init__()
        self.embedding_dict = nn.ModuleDict({f"C{i}": nn.Embedding(vocab, emb_dim) for i in range(n_sparse)})
        self.linear = nn.Linear(n_sparse * emb_dim, 1)
        self.dnn = nn.Sequential(nn.Linear(n_sparse * emb_dim, 16), nn.ReLU(), nn.Linear(16, 1))
        self.reg_loss = torch.zeros((1,))
        self.add_regularization_loss([e.weight for e in self.embedding_dict.values()], l2_reg_embedding)
        self.add_regularization_loss([self.linear.weight], l2_reg_linear)

    def add_regularization_loss(self, weight_list, weight_decay, p=2):
        reg_loss = torch.zeros((1,))
        for w in weight_list:
            l2_reg = torch.norm(w, p=p)
            reg_loss = reg_loss + l2_reg
        self.reg_loss = self.reg_loss + reg_loss * weight_decay

    def forward(self, X):
        emb = torch.cat([self.embedding_dict[f"C{i}"](X[:, i]) for i in range(X.size(1))], dim=1)
        return torch.sigmoid(self.linear(emb) + self.dnn(emb)).squeeze(-1)

    def fit(self, x, y, batch_size=8, epochs=2):
        optim = torch.optim.Adagrad(self.parameters(), lr=0.01)
        for epoch in range(epochs):
            total_loss_epoch = 0.0
            for start in range(0, x.size(0), batch_size):
                x_b, y_b = x[start:start + batch_size], y[start:start + batch_size]
                y_pred = self(x_b)
                optim.zero_grad()
                loss = F.binary_cross_entropy(y_pred, y_b, reduction="sum")
                total_loss = loss + self.reg_loss
                total_loss_epoch += total_loss.item()
                total_loss.backward(retain_graph=True)
                optim.step()
            print(f"epoch {epoch}: loss {total_loss_epoch:.4f}")


X = torch.randint(0, 20, (32, 3))
Y = torch.randint(0, 2, (32,)).float()
model = BaseModel()
model.fit(X, Y)
