"""Fine-tune the keypoint head with a custom SimCC KL loss."""
import torch
import torch.nn.functional as F

from model import KeypointHead
from losses import KLDiscretLoss


def gaussian_labels(n, n_kpt, bins, sigma=1.5):
    centers = torch.randint(0, bins, (n, n_kpt, 1)).float()
    grid = torch.arange(bins).float().view(1, 1, -1)
    return F.softmax(-((grid - centers) ** 2) / (2 * sigma ** 2), dim=-1)


def main():
    torch.manual_seed(0)
    head = KeypointHead()
    loss_fn = KLDiscretLoss(beta=2.0)
    optim = torch.optim.AdamW(head.parameters(), lr=5e-4, weight_decay=0.05)
    for it in range(4):
        feats = torch.randn(5, 24)
        gt = (gaussian_labels(5, 3, 12), gaussian_labels(5, 3, 10))
        pred = head(feats)
        loss = loss_fn(pred, gt)
        optim.zero_grad()
        loss.backward()
        optim.step()
        print(it, float(loss))


if __name__ == "__main__":
    main()
