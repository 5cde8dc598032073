"""Fisher-weighted layer reconstruction helpers."""
import torch
import torch.nn.functional as F


class GradSaverHook:
    def __init__(self):
        self.grad_out = None

    def __call__(self, module, grad_input, grad_output):
        self.grad_out = grad_output[0].detach()


def save_grad_data(qmodel, fp_model, layer, batches):
    """Squared gradients of the KL between quantised and fp predictions w.r.t. the layer output."""
    hook = GradSaverHook()
    handle = layer.register_full_backward_hook(hook)
    grads = []
    with torch.enable_grad():
        for x in batches:
            qmodel.zero_grad()
            out_q = qmodel(x)
            with torch.no_grad():
                out_fp = fp_model(x)
            loss = F.kl_div(F.log_softmax(out_q, 1), F.softmax(out_fp, 1), reduction="batchmean")
            loss.backward()
            grads.append(hook.grad_out.pow(2))
    handle.remove()
    return torch.cat(grads)


def save_inp_oup_data(qmodel, layer, batches):
    store = {}
    handle = layer.register_forward_hook(lambda m, i, o: store.setdefault("io", []).append((i[0].detach(), o.detach())))
    with torch.no_grad():
        for x in batches:
            qmodel(x)
    handle.remove()
    inps, outs = zip(*store["io"])
    return torch.cat(inps), torch.cat(outs)


def layer_reconstruction(layer, fp_layer, inps, grads, iters=20, lr=1e-3):
    """Learn the weights and activation step size so the Fisher-weighted output error is small."""
    layer.act_quantizer.delta = torch.nn.Parameter(layer.act_quantizer.delta.detach().clone())
    params = [layer.weight, layer.act_quantizer.delta]
    opt = torch.optim.Adam(params, lr=lr)
    with torch.no_grad():
        target = fp_layer(inps)
    for i in range(iters):
        opt.zero_grad()
        out = layer(inps)
        loss = (grads * (out - target).pow(2)).sum(1).mean()
        loss.backward()
        opt.step()
    return loss.item()
