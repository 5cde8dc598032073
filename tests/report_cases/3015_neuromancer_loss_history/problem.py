"""Minimal Neuromancer-style Problem: nodes map dict batches to dict outputs, objectives and
penalty constraints are summed into '<split>_loss'."""
import torch
import torch.nn as nn


class Node(nn.Module):
    def __init__(self, callable, input_keys, output_keys, name=None):
        super().__init__()
        self.callable, self.input_keys, self.output_keys, self.name = callable, input_keys, output_keys, name

    def forward(self, data):
        out = self.callable(*[data[k] for k in self.input_keys])
        out = out if isinstance(out, tuple) else (out,)
        return dict(zip(self.output_keys, out))


class Problem(nn.Module):
    def __init__(self, nodes, objectives, constraints, grad_inference=False):
        super().__init__()
        self.nodes = nn.ModuleList(nodes)
        self.objectives, self.constraints = objectives, constraints
        self.grad_inference = grad_inference

    def forward(self, data):
        output = dict(data)
        for node in self.nodes:
            output.update(node(output))
        terms = [w * f(output) for w, f in self.objectives]
        terms += [w * torch.relu(g(output)).pow(2).mean() for w, g in self.constraints]
        output[f"{data['name']}_loss"] = torch.stack(terms).sum()
        return output


def blocks(insize, outsize, hsizes=(32, 32)):
    layers, n = [], insize
    for h in hsizes:
        layers += [nn.Linear(n, h), nn.GELU()]
        n = h
    return nn.Sequential(*layers, nn.Linear(n, outsize))


def make_loaders(n_train=64, n_dev=32, batch_size=16, nx=2):
    def split(n, name):
        p = torch.rand(n, nx) * 2 - 1
        return [{"p": p[i:i + batch_size], "name": name} for i in range(0, n, batch_size)]
    return split(n_train, "train"), split(n_dev, "dev")


def graph_size(tensors):
    stack, seen = [getattr(t, "grad_fn", None) for t in tensors], set()
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)
