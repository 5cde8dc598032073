"""Fine-tuning with a feature-preservation penalty.

Intermediate activations are captured by a forward hook. Features of a
fixed reference batch are recorded before fine-tuning starts and the
model is asked to keep producing them while it learns the new task.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SaveFeatures:
    def __init__(self, module):
        self.features = None
        self.handle = module.register_forward_hook(self.hook_fn)

    def hook_fn(self, module, inp, out):
        self.features = out

    def remove(self):
        self.handle.remove()


net = nn.Sequential(
    nn.Linear(12, 24), nn.ReLU(),
    nn.Linear(24, 24), nn.ReLU(),
    nn.Linear(24, 4),
)
sf = SaveFeatures(net[3])
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)

torch.manual_seed(0)
reference = torch.randn(6, 12)
net(reference)
anchor_feats = sf.features

for it in range(5):
    x = torch.randn(8, 12)
    y = torch.randint(0, 4, (8,))
    opt.zero_grad()
    task_loss = F.cross_entropy(net(x), y)
    net(reference)
    keep_loss = F.mse_loss(sf.features, anchor_feats)
    loss = task_loss + 0.1 * keep_loss
    loss.backward()
    opt.step()
    print(it, round(loss.item(), 4))

sf.remove()
