import time

import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, cfg, get_batch):
        self.model = model
        self.cfg = cfg
        self.get_batch = get_batch
        self.use_amp = cfg.use_amp
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.learning_rate,
                                           weight_decay=cfg.weight_decay, betas=(0.9, 0.95))
        self.scaler = torch.amp.GradScaler("cpu", enabled=self.use_amp)
        self.iter_num = 0
        self.stats = {"loss": [], "dt": []}

    def _forward(self, X, Y):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.use_amp):
            logits = self.model(X)
            return F.cross_entropy(logits.view(-1, logits.size(-1)), Y.view(-1))

    def train(self):
        cfg = self.cfg
        X, Y = self.get_batch()
        while self.iter_num < cfg.max_iters:
            t0 = time.time()
            lossf = torch.zeros(())
            for micro_step in range(cfg.gradient_accumulation_steps):
                loss = self._forward(X, Y) / cfg.gradient_accumulation_steps
                X, Y = self.get_batch()  # prefetch next batch while backward runs
                self.scaler.scale(loss).backward()
                lossf += loss.detach()
            if cfg.grad_clip != 0.0:
                self.scaler.unscale_(self.optimizer)
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), cfg.grad_clip)
            self.scaler.step(self.optimizer)
            self.scaler.update()
            self.optimizer.zero_grad(set_to_none=True)
            self.stats["loss"].append(lossf.item())
            self.stats["dt"].append(time.time() - t0)
            if self.iter_num % cfg.log_interval == 0:
                print(f"iter {self.iter_num}: loss {lossf.item():.4f}, time {self.stats['dt'][-1] * 1000:.1f}ms")
            self.iter_num += 1
