import torch

from losses import density_loss
from model import CountingNet


def train(num_iters=3):
    torch.manual_seed(0)
    net = CountingNet(n_classes=3)
    optimizer = torch.optim.SGD(net.parameters(), lr=1e-3, momentum=0.9)
    images = torch.randn(2, 3, 32, 32)
    gt = torch.rand(2, 3, 16, 16)
    for it in range(num_iters):
        pred = net(images)
        loss = density_loss(pred, gt)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
