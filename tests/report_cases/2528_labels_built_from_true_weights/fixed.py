import random

import torch

torch.manual_seed(0)
random.seed(0)

# Randomly generate our training samples and train labels
num_samples = 400
num_features = 2
num_hiddens = 2

X = torch.randn((num_samples, num_features), dtype=torch.float32)
true_W = torch.randn((num_hiddens, 1), requires_grad=True, dtype=torch.float32)
true_b = torch.randn(1, requires_grad=True, dtype=torch.float32)
with torch.no_grad():
    Y = torch.mm(X, true_W) + true_b


class DataLoader:
    def __init__(self, X, Y, batch_size, shuffle=True):
        self.X, self.Y, self.batch_size, self.shuffle = X, Y, batch_size, shuffle

    def __iter__(self):
        idx = list(range(len(self.X)))
        if self.shuffle:
            random.shuffle(idx)
        for i in range(0, len(idx), self.batch_size):
            j = torch.tensor(idx[i:i + self.batch_size])
            yield self.X[j], self.Y[j]


def relu(x):
    return torch.max(x, torch.zeros_like(x))


def loss(y_hat, y):
    return ((y_hat - y.reshape(y_hat.shape)) ** 2 / 2).sum()


def fc(x, w, b):
    return torch.mm(x, w) + b


W = torch.normal(0, 0.01, size=(num_hiddens, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)

batch_size = 20
lr = 0.01
num_epochs = 5
dataloader = DataLoader(X, Y, batch_size, shuffle=True)
optimizer = torch.optim.SGD([W, b], lr=lr / batch_size)

for epoch in range(num_epochs):
    for x, y in dataloader:
        l = loss(fc(x, W, b), y)
        optimizer.zero_grad()
        l.backward()
        optimizer.step()
    with torch.no_grad():
        train_l = loss(fc(X, W, b), Y)
    print(f'epoch {epoch + 1}, loss {float(train_l / num_samples):f}')
