"""Per-example gradient norms via hooks (autograd-hacks style): a forward hook saves each Linear
layer's input activations and registers a tensor hook on its output to capture backprops."""
import torch
import torch.nn as nn
import torch.nn.functional as F

_supported_layers = ['Linear']
_hooks_disabled = False


def add_hooks(model: nn.Module) -> None:
    handles = []
    for layer in model.modules():
        if _layer_type(layer) in _supported_layers:
            handles.append(layer.register_forward_hook(_capture_activations))
    model.__dict__.setdefault('autograd_hacks_hooks', []).extend(handles)


def remove_hooks(model: nn.Module) -> None:
    for handle in model.__dict__.get('autograd_hacks_hooks', []):
        handle.remove()
    del model.autograd_hacks_hooks


def _layer_type(layer: nn.Module) -> str:
    return layer.__class__.__name__


def _capture_activations(layer: nn.Module, input, output):
    if _hooks_disabled:
        return
    setattr(layer, 'activations', input[0].detach())

    def tensor_backwards(grad):
        setattr(layer, 'backprops', grad.detach())
    output.register_hook(tensor_backwards)


def compute_grad1(model: nn.Module) -> None:
    for layer in model.modules():
        if _layer_type(layer) not in _supported_layers:
            continue
        A = layer.activations
        B = layer.backprops
        layer.weight.grad1 = torch.einsum('ni,nj->nij', B, A)
        if layer.bias is not None:
            layer.bias.grad1 = B


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


if __name__ == '__main__':
    torch.manual_seed(1)
    model = Net()
    add_hooks(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    clip = 1.0
    for step in range(4):
        data, targets = torch.randn(8, 10), torch.randint(0, 3, (8,))
        optimizer.zero_grad()
        output = model(data)
        loss = F.cross_entropy(output, targets, reduction='sum')
        loss.backward()
        compute_grad1(model)
        # DP-SGD style: clip each example's gradient, then average
        norms = torch.zeros(data.size(0))
        for p in model.parameters():
            norms += p.grad1.flatten(1).pow(2).sum(1)
        scale = (clip / (norms.sqrt() + 1e-6)).clamp(max=1.0)
        for p in model.parameters():
            p.grad = torch.einsum('n,n...->...', scale, p.grad1) / data.size(0)
        optimizer.step()
        print(f'step {step}: loss {loss.item() / data.size(0):.4f}, mean per-example norm {norms.sqrt().mean():.3f}')
    remove_hooks(model)
