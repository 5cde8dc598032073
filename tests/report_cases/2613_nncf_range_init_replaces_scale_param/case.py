import torch
import torch.nn as nn

from model import QuantizedMLP
from quantizer import SymmetricQuantizer, quantizer_parameters

torch.manual_seed(0)

config = {"stage": "range_learning", "lr": 1e-2, "init_batches": 2, "train_steps": 8}


def init_ranges(model, loader, num_batches):
    """Min-max range initialisation: collect the max |activation| seen at every quantizer."""
    stats = {}
    hooks = [m.register_forward_pre_hook(
        lambda mod, inp: stats.__setitem__(mod, max(stats.get(mod, 0.0), inp[0].abs().max().item())))
        for m in model.modules() if isinstance(m, SymmetricQuantizer)]
    with torch.no_grad():
        for x, _ in loader[:num_batches]:
            model(x)
    for h in hooks:
        h.remove()
    for module, max_abs in stats.items():
        module.scale = nn.Parameter(torch.tensor([max_abs]))


model = QuantizedMLP()
model.fc1.requires_grad_(False)
model.fc2.requires_grad_(False)
# range-learning stage: only the quantizer scales are trained
optimizer = torch.optim.Adam(quantizer_parameters(model), lr=config["lr"])
criterion = nn.CrossEntropyLoss()
loader = [(torch.randn(16, 8) * 3, torch.randint(0, 3, (16,))) for _ in range(config["train_steps"])]

init_ranges(model, loader, config["init_batches"])
for step, (x, y) in enumerate(loader):
    loss = criterion(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 4), [round(m.scale.item(), 3) for m in (model.act_quant1, model.act_quant2)])
