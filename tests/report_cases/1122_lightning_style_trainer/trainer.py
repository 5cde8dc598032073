from collections import defaultdict


class Trainer:
    def __init__(self, max_epochs=1, log_every_n_steps=2):
        self.max_epochs = max_epochs
        self.log_every_n_steps = log_every_n_steps
        self.logged_metrics = defaultdict(list)
        self.global_step = 0

    def manual_backward(self, loss, *args, **kwargs):
        loss.backward(*args, **kwargs)

    def _run_train_batch(self, module, optimizer, batch, batch_idx):
        out = module.training_step(batch, batch_idx)
        optimizer.zero_grad(set_to_none=True)
        self.manual_backward(out["loss"])
        optimizer.step()
        return out

    def fit(self, module, train_dataloader, val_dataloader=None):
        optimizer = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            module.train()
            for batch_idx, batch in enumerate(train_dataloader()):
                out = self._run_train_batch(module, optimizer, batch, batch_idx)
                for name, value in out["log"].items():
                    self.logged_metrics[name].append(float(value))
                self.global_step += 1
            if val_dataloader is not None:
                module.eval()
                vals = [module.validation_step(b, i)["val_mse"].item()
                        for i, b in enumerate(val_dataloader())]
                self.logged_metrics["val_mse"].append(sum(vals) / len(vals))
            print(f"epoch {epoch}: " + ", ".join(f"{k}={v[-1]:.4f}" for k, v in self.logged_metrics.items()))
