import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def clone_module(module):
    """Copy of `module` whose parameters are differentiable clones of the originals."""
    clone = copy.deepcopy(module)
    for (name, _), param in zip(list(clone.named_parameters()), module.parameters()):
        mod = clone
        *path, leaf = name.split(".")
        for p in path:
            mod = getattr(mod, p)
        del mod._parameters[leaf]
        setattr(mod, leaf, param.clone())
    return clone




class MAML(nn.Module):
    def __init__(self, model, lr):
        super().__init__()
        self.module, self.lr = model, lr

    def clone(self):
        return Learner(clone_module(self.module), self.lr)


class Learner:
    def __init__(self, module, lr):
        self.module, self.lr = module, lr

    def tensors(self):
        out = []
        for mod in self.module.modules():
            for k, v in list(mod.__dict__.items()):
                if isinstance(v, torch.Tensor) and v.requires_grad and k in ("weight", "bias"):
                    out.append((mod, k, v))
        return out

    def adapt(self, loss):
        entries = self.tensors()
        grads = torch.autograd.grad(loss, [v for _, _, v in entries], create_graph=True)
        for (mod, k, v), g in zip(entries, grads):
            setattr(mod, k, v - self.lr * g)

    def __call__(self, x):
        return self.module(x)


model = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 3))
maml = MAML(model, lr=0.5)
opt = torch.optim.Adam(maml.parameters(), lr=1e-3)
for iteration in range(4):
    opt.zero_grad()
    meta_train_error = 0.0
    for task in range(3):
        learner = maml.clone()
        x, y = torch.randn(10, 5), torch.randint(0, 3, (10,))
        for step in range(2):
            learner.adapt(F.cross_entropy(learner(x[:5]), y[:5]))
        evaluation_error = F.cross_entropy(learner(x[5:]), y[5:])
        evaluation_error.backward()
        meta_train_error += evaluation_error.item()
    for p in maml.parameters():
        p.grad.data.mul_(1.0 / 3)
    opt.step()
