"""Meta-train a loss function so that a few SGD steps on it fit new sine tasks."""
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from meta import LearnedLoss, init_learner, inner_adapt, learner_forward, sample_task


@dataclass
class MetaConfig:
    meta_iters: int = 4
    tasks_per_batch: int = 2
    inner_steps: int = 3
    inner_lr: float = 1e-2
    meta_lr: float = 1e-3
    shots: int = 10
    seed: int = 0


class LossMetaTrainer:
    def __init__(self, cfg: MetaConfig):
        self.cfg = cfg
        self.gen = torch.Generator().manual_seed(cfg.seed)
        self.loss_net = LearnedLoss()
        self.meta_opt = torch.optim.Adam(self.loss_net.parameters(), lr=cfg.meta_lr)
        self.log = []

    def meta_step(self):
        cfg = self.cfg
        task_losses = []
        for _ in range(cfg.tasks_per_batch):
            x, y = sample_task(2 * cfg.shots, self.gen)
            xs, ys, xq, yq = x[:cfg.shots], y[:cfg.shots], x[cfg.shots:], y[cfg.shots:]
            params = init_learner(generator=self.gen)
            fast = inner_adapt(params, self.loss_net, xs, ys, cfg.inner_lr, cfg.inner_steps)
            task_losses.append(F.mse_loss(learner_forward(xq, fast), yq))
        meta_loss = torch.stack(task_losses).mean()
        self.meta_opt.zero_grad()
        meta_loss.backward()
        self.meta_opt.step()
        return meta_loss.item()

    def run(self):
        for it in range(self.cfg.meta_iters):
            self.log.append(self.meta_step())
            print(f"meta-iter {it}: task mse after adaptation {self.log[-1]:.4f}")


if __name__ == "__main__":
    LossMetaTrainer(MetaConfig()).run()
