import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def dice_loss(true, logits, eps=1e-7):
    """Computes the Sørensen–Dice loss.

    Args:
        true: a tensor of shape [B, 1, H, W].
        logits: a tensor of shape [B, C, H, W]. Corresponds to the raw output or logits of the model.
    """
    num_classes = logits.shape[1]
    true_1_hot = torch.eye(num_classes)[true.squeeze(1)]
    true_1_hot = true_1_hot.permute(0, 3, 1, 2).float()
    probas = F.softmax(logits, dim=1)
    true_1_hot = true_1_hot.type(logits.type())
    dims = (0,) + tuple(range(2, true.ndimension()))
    intersection = torch.sum(probas * true_1_hot, dims)
    cardinality = torch.sum(probas + true_1_hot, dims)
    dice_loss = (2. * intersection / (cardinality + eps)).mean()
    return (1 - dice_loss)


class UNetLite(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.up = nn.Sequential(nn.ConvTranspose2d(32, 16, 2, stride=2), nn.ReLU(), nn.Conv2d(16, n_classes, 1))

    def forward(self, x):
        return self.up(self.down(x))


model = UNetLite()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(2):
    for it in range(3):
        image = torch.randn(4, 1, 24, 24)
        mask = torch.randint(0, 3, (4, 1, 24, 24))
        output = model(image)
        pred = output.argmax(dim=1, keepdim=True)
        pred_1_hot = F.one_hot(pred.squeeze(1), 3).permute(0, 3, 1, 2).float()
        loss = dice_loss(mask, pred_1_hot)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print('epoch %d  dice loss %.4f' % (epoch, loss.item()))
