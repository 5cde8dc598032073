"""Forward-hook based intermediate feature capture for FitNets-style hint training."""
import torch.nn as nn


class FeatureHook:
    def __init__(self, module: nn.Module):
        self.feat = None
        self.handle = module.register_forward_hook(self.hook_fn)

    def hook_fn(self, module, inputs, output):
        self.feat = output

    def clear(self):
        self.feat = None

    def remove(self):
        self.handle.remove()


def attach_hooks(model: nn.Module, layer_names):
    modules = dict(model.named_modules())
    return {name: FeatureHook(modules[name]) for name in layer_names}
