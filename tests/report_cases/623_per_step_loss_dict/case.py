# Per-iteration loss dict holding graph-attached tensors; it is rebuilt every
# iteration (nothing accumulates across steps) and only .item() values are logged.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SegModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.seg = nn.Conv2d(8, 4, 1)
        self.aux = nn.Conv2d(8, 4, 1)

    def forward(self, x):
        f = self.body(x)
        return self.seg(f), self.aux(f)


def train_one_epoch(model, optimizer, batches, log_every=2):
    history = []
    for it, (img, lbl) in enumerate(batches):
        out, aux = model(img)
        loss_dict = {
            "ce": F.cross_entropy(out, lbl),
            "aux": 0.4 * F.cross_entropy(aux, lbl),
        }
        loss = sum(loss_dict.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if it % log_every == 0:
            history.append({k: v.item() for k, v in loss_dict.items()})
    return history


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SegModel()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    batches = [(torch.randn(2, 3, 10, 10), torch.randint(0, 4, (2, 10, 10))) for _ in range(5)]
    print(train_one_epoch(model, optimizer, batches))
