# Saliency of an input: the input is made a leaf that requires grad by attribute, and
# the score is backpropagated to it (no parameter of a model involved).
import torch

x = torch.linspace(-1, 1, 11)
x.requires_grad = True
score = (torch.sin(3 * x) * x ** 2).sum()
score.backward()
saliency = x.grad.abs()
w = torch.zeros(3)
w.requires_grad_()
(w * torch.ones(3)).sum().backward()
print(saliency.max().item(), w.grad)
