import copy

import torch


def create_ema_model(model):
    ema_model = copy.deepcopy(model)
    for param in ema_model.parameters():
        param.detach_()
    return ema_model


def update_ema_variables(model, ema_model, global_step, alpha=0.999):
    # use the true average until the exponential average is more correct
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.data.mul_(alpha).add_(param.data, alpha=1 - alpha)
    for ema_buf, buf in zip(ema_model.buffers(), model.buffers()):
        ema_buf.data.copy_(buf.data)
