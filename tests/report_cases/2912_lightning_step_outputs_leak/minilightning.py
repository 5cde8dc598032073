"""A very small LightningModule/Trainer look-alike (fit loop with hooks)."""
import torch
import torch.nn as nn


def graph_size(obj):
    """Number of autograd nodes reachable from the tensors inside obj."""
    stack, seen = [], set()
    def collect(o):
        if torch.is_tensor(o) and o.grad_fn is not None:
            stack.append(o.grad_fn)
        elif isinstance(o, dict):
            for v in o.values():
                collect(v)
        elif isinstance(o, (list, tuple)):
            for v in o:
                collect(v)
    collect(obj)
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class LightningModule(nn.Module):
    def log(self, name, value):
        self.logged = getattr(self, "logged", {})
        self.logged[name] = float(value.detach()) if torch.is_tensor(value) else float(value)

    def on_train_epoch_end(self):
        pass


class Trainer:
    def __init__(self, max_epochs=1):
        self.max_epochs = max_epochs

    def fit(self, module, train_batches):
        optimizer = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            module.train()
            for batch_idx, batch in enumerate(train_batches):
                out = module.training_step(batch, batch_idx)
                loss = out["loss"] if isinstance(out, dict) else out
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                print(f"epoch {epoch} batch {batch_idx} graph nodes held by the module: "
                      f"{graph_size(getattr(module, 'training_step_outputs', []))}")
            module.on_train_epoch_end()
