"""Meta-Weight-Net style training on noisy labels: a virtual SGD step on a copy of the
classifier is scored on a clean meta batch to train the sample-weighting net."""
import torch
import torch.nn.functional as F
import torch.nn as nn


class MetaModule(nn.Module):
    def params(self):
        for _, p in self.named_params():
            yield p

    def named_params(self):
        for mname, module in self.named_modules():
            for name, buf in module._buffers.items():
                if buf is not None and buf.requires_grad:
                    yield (mname + "." + name if mname else name), buf

    def set_param(self, name, param):
        module = self
        *path, leaf = name.split(".")
        for part in path:
            module = getattr(module, part)
        setattr(module, leaf, param)

    def update_params(self, lr_inner, source_params):
        for (name, p), g in zip(list(self.named_params()), source_params):
            self.set_param(name, p - lr_inner * g)

    def copy_params_from(self, other):
        """Re-initialise this copy's weights as fresh leaves taken from `other`."""
        for (name, _), p in zip(list(self.named_params()), other.params()):
            self.set_param(name, p.detach().clone().requires_grad_(True))


class MetaLinear(MetaModule):
    def __init__(self, in_f, out_f):
        super().__init__()
        ref = nn.Linear(in_f, out_f)
        self.register_buffer("weight", ref.weight.data.clone().requires_grad_(True))
        self.register_buffer("bias", ref.bias.data.clone().requires_grad_(True))

    def forward(self, x):
        return F.linear(x, self.weight, self.bias)


class MetaMLP(MetaModule):
    def __init__(self, in_dim=20, hidden=32, num_classes=5):
        super().__init__()
        self.fc1 = MetaLinear(in_dim, hidden)
        self.fc2 = MetaLinear(hidden, num_classes)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


class VNet(nn.Module):
    """Maps a per-sample loss to a sample weight in (0, 1)."""

    def __init__(self, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.ReLU(), nn.Linear(hidden, 1), nn.Sigmoid())

    def forward(self, cost):
        return self.net(cost)


torch.manual_seed(0)
NUM_CLASSES = 5


def noisy_batches(n, batch=32, noise=0.4):
    for _ in range(n):
        x = torch.randn(batch, 20)
        y = x[:, :NUM_CLASSES].argmax(1)
        flip = torch.rand(batch) < noise
        y[flip] = torch.randint(0, NUM_CLASSES, (int(flip.sum()),))
        yield x, y


def clean_batch(batch=32):
    x = torch.randn(batch, 20)
    return x, x[:, :NUM_CLASSES].argmax(1)


def train(model, vnet, optimizer_model, optimizer_vnet, meta_lr=0.1, steps=6):
    for step, (inputs, targets) in enumerate(noisy_batches(steps)):
        meta_model = MetaMLP(num_classes=NUM_CLASSES)  # fresh copy for every virtual step
        meta_model.load_state_dict(model.state_dict())
        cost = F.cross_entropy(meta_model(inputs), targets, reduction="none").view(-1, 1)
        v_lambda = vnet(cost.detach())
        l_f_meta = torch.sum(cost * v_lambda) / len(cost)
        grads = torch.autograd.grad(l_f_meta, list(meta_model.params()), create_graph=True)
        meta_model.update_params(lr_inner=meta_lr, source_params=grads)

        inputs_val, targets_val = clean_batch()
        l_g_meta = F.cross_entropy(meta_model(inputs_val), targets_val)
        optimizer_vnet.zero_grad()
        l_g_meta.backward()
        optimizer_vnet.step()

        cost_w = F.cross_entropy(model(inputs), targets, reduction="none").view(-1, 1)
        with torch.no_grad():
            w_new = vnet(cost_w)
        loss = torch.sum(cost_w * w_new) / len(cost_w)
        optimizer_model.zero_grad()
        loss.backward()
        optimizer_model.step()
        print(step, round(loss.item(), 4), round(l_g_meta.item(), 4))


def main():
    model = MetaMLP(num_classes=NUM_CLASSES)
    vnet = VNet()
    optimizer_model = torch.optim.SGD(model.params(), lr=0.1, momentum=0.9)
    optimizer_vnet = torch.optim.Adam(vnet.parameters(), lr=1e-3)
    train(model, vnet, optimizer_model, optimizer_vnet)


if __name__ == "__main__":
    main()
