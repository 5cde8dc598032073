import numpy as np
import torch
import torch.nn as nn

from fixed_src.resample_loss import ResampleLoss

torch.manual_seed(0)
np.random.seed(0)

NUM_CLASSES = 10
FEAT_DIM = 48


def make_long_tailed_multilabel(n):
    freqs = np.linspace(0.6, 0.03, NUM_CLASSES)
    labels = (np.random.rand(n, NUM_CLASSES) < freqs).astype(np.float32)
    proj = np.random.randn(NUM_CLASSES, FEAT_DIM).astype(np.float32)
    feats = labels @ proj + 0.5 * np.random.randn(n, FEAT_DIM).astype(np.float32)
    return torch.from_numpy(feats), torch.from_numpy(labels)


class MultiLabelHead(nn.Module):
    def __init__(self, in_dim, num_classes):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.fc = nn.Linear(64, num_classes)

    def forward(self, x):
        return self.fc(self.backbone(x))


if __name__ == '__main__':
    X, Y = make_long_tailed_multilabel(512)
    class_freq = Y.sum(0).clamp(min=1).numpy()
    criterion = ResampleLoss(class_freq=class_freq, train_num=len(Y))
    model = MultiLabelHead(FEAT_DIM, NUM_CLASSES)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    for epoch in range(5):
        perm = torch.randperm(len(X))
        total = 0.0
        for batch in perm.split(64):
            outputs = model(X[batch])
            loss = criterion(outputs, Y[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(batch)
        print('epoch', epoch, 'loss', round(total / len(X), 4))
