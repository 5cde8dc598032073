import torch
import torch.nn as nn


class ModuleValidator:
    """Checks a model for layers incompatible with per-sample-gradient DP training and fixes them."""

    @staticmethod
    def validate(model):
        return [name for name, m in model.named_modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]

    @staticmethod
    def fix(model, num_groups=4):
        for name, child in model.named_children():
            if isinstance(child, nn.modules.batchnorm._BatchNorm):
                setattr(model, name, nn.GroupNorm(min(num_groups, child.num_features), child.num_features))
            else:
                ModuleValidator.fix(child, num_groups)
        return model


def dp_sgd_step(optimizer, max_grad_norm=1.0, noise_multiplier=0.5, batch_size=8):
    """Clip the batch gradient and add Gaussian noise before the step (simplified DP-SGD)."""
    params = [p for g in optimizer.param_groups for p in g["params"] if p.grad is not None]
    total_norm = sum(p.grad.norm() ** 2 for p in params) ** 0.5
    scale = min(1.0, max_grad_norm / (float(total_norm) + 1e-6))
    for p in params:
        p.grad.mul_(scale).add_(noise_multiplier * max_grad_norm / batch_size * torch.randn_like(p))
    optimizer.step()
