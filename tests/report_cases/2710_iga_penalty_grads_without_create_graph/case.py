import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import autograd

torch.manual_seed(0)


class ERM(nn.Module):
    def __init__(self, input_dim, num_classes, hparams):
        super().__init__()
        self.hparams = hparams
        self.featurizer = nn.Sequential(nn.Linear(input_dim, 32), nn.ReLU())
        self.classifier = nn.Linear(32, num_classes)
        self.network = nn.Sequential(self.featurizer, self.classifier)
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=hparams["lr"])


class IGA(ERM):
    """Inter-environmental Gradient Alignment."""

    def update(self, minibatches):
        total_loss = 0
        grads = []
        for i, (x, y) in enumerate(minibatches):
            logits = self.network(x)
            env_loss = F.cross_entropy(logits, y)
            total_loss += env_loss
            env_grad = autograd.grad(env_loss, self.network.parameters(), retain_graph=True)
            grads.append(env_grad)

        mean_loss = total_loss / len(minibatches)
        mean_grad = autograd.grad(mean_loss, self.network.parameters(), retain_graph=True)

        # compute trace penalty
        penalty_value = 0
        for grad in grads:
            for g, mean_g in zip(grad, mean_grad):
                penalty_value += (g - mean_g).pow(2).sum()

        self.optimizer.zero_grad()
        (self.hparams["penalty"] * penalty_value).backward()
        self.optimizer.step()
        return {"loss": mean_loss.item(), "penalty": penalty_value.item()}


hparams = {"lr": 1e-3, "penalty": 1000.0}
algorithm = IGA(input_dim=10, num_classes=3, hparams=hparams)
for step in range(3):
    minibatches = [(torch.randn(16, 10), torch.randint(0, 3, (16,))) for _ in range(3)]
    algorithm.update(minibatches)
