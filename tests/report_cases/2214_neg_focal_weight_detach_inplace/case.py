import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FocalLoss(nn.Module):
    """Focal loss whose modulating factor (1 - p_t)^gamma is used as a constant weight."""

    def __init__(self, class_num, alpha=None, gamma=2, size_average=True):
        super(FocalLoss, self).__init__()
        if alpha is None:
            self.alpha = torch.ones(class_num, 1)
        else:
            self.alpha = alpha
        self.gamma = gamma
        self.class_num = class_num
        self.size_average = size_average

    def forward(self, inputs, targets):
        N = inputs.size(0)
        C = inputs.size(1)
        P = F.softmax(inputs, dim=1)

        class_mask = inputs.data.new(N, C).fill_(0)
        ids = targets.view(-1, 1)
        class_mask.scatter_(1, ids.data, 1.)

        alpha = self.alpha[ids.data.view(-1)]
        probs = (P * class_mask).sum(1).view(-1, 1)
        log_p = probs.log()

        pt = torch.pow(1 - probs, self.gamma)
        pt.detach_()
        batch_loss = -alpha * pt * log_p

        if self.size_average:
            return batch_loss.mean()
        return batch_loss.sum()


class MLP(nn.Module):
    def __init__(self, in_dim=12, n_classes=5):
        super(MLP, self).__init__()
        self.features = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(inplace=True),
                                      nn.Linear(64, 64), nn.ReLU(inplace=True))
        self.fc = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.fc(self.features(x))


def imbalanced_batches(n_batches, batch_size=64, n_classes=5):
    prior = torch.tensor([0.6, 0.2, 0.1, 0.07, 0.03])
    centers = torch.randn(n_classes, 12) * 1.5
    for _ in range(n_batches):
        y = torch.multinomial(prior, batch_size, replacement=True)
        x = centers[y] + torch.randn(batch_size, 12)
        yield x, y


def train(epochs=3):
    model = MLP()
    criterion = FocalLoss(class_num=5, gamma=2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(epochs):
        correct = total = 0
        for x, y in imbalanced_batches(10):
            logits = model(x)
            loss = criterion(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            correct += (logits.argmax(1) == y).sum().item()
            total += y.numel()
        print(f"epoch {epoch} focal loss {loss.item():.4f} acc {correct / total:.3f}")


if __name__ == '__main__':
    train()
