"""Gradient-inversion attack (DLG style) in a federated-learning simulation: the server receives one
client's local gradients and optimises dummy data whose gradients match them."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LeNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 6, 3, padding=1), nn.Sigmoid(), nn.Conv2d(6, 6, 3, stride=2, padding=1), nn.Sigmoid())
        self.fc = nn.Linear(6 * 4 * 4, n_classes)

    def forward(self, x):
        return self.fc(self.body(x).flatten(1))


class FedClient:
    def __init__(self, model, gp_weight=0.01):
        self.model = model
        self.gp_weight = gp_weight

    def upload_gradients(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        grads = torch.autograd.grad(loss, list(self.model.parameters()), create_graph=True)
        # gradient-norm penalty used by this client's local objective
        penalty = self.gp_weight * sum((g ** 2).sum() for g in grads)
        grads = torch.autograd.grad(loss + penalty, list(self.model.parameters()), create_graph=True)
        return [g.detach() for g in grads]  # only the values leave the client


class GradientInversionAttack:
    def __init__(self, target_model, lr=0.1, num_iteration=6):
        self.target_model = target_model
        self.lr = lr
        self.num_iteration = num_iteration

    def attack(self, received_gradients, shape=(1, 1, 8, 8), n_classes=4):
        fake_x = torch.rand(shape, requires_grad=True)
        fake_label = torch.randn(shape[0], n_classes, requires_grad=True)
        optimizer = torch.optim.Adam([fake_x, fake_label], lr=self.lr)
        params = list(self.target_model.parameters())
        for i in range(self.num_iteration):
            optimizer.zero_grad()
            fake_pred = self.target_model(fake_x)
            fake_loss = torch.sum(-F.softmax(fake_label, -1) * F.log_softmax(fake_pred, -1), -1).mean()
            fake_gradients = torch.autograd.grad(fake_loss, params, create_graph=True)
            distance = sum(((fg - rg) ** 2).sum() for fg, rg in zip(fake_gradients, received_gradients))
            distance.backward()
            optimizer.step()
            print(f"iter={i}: {distance.item():.5f}")
        return fake_x.detach(), fake_label.detach()


if __name__ == "__main__":
    net = LeNet()
    client = FedClient(net)
    x_private = torch.rand(1, 1, 8, 8)
    y_private = torch.tensor([2])
    received = client.upload_gradients(x_private, y_private)
    attacker = GradientInversionAttack(net)
    rec_x, rec_label = attacker.attack(received)
    print("mse to private image:", F.mse_loss(rec_x, x_private).item())
