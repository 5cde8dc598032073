from collections import OrderedDict
import torch
from stats import AverageMeter


def graph_size(tensors):
    stack = [t.grad_fn for t in tensors if torch.is_tensor(t) and t.grad_fn is not None]
    seen = set()
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class LTRTrainer:
    def __init__(self, actor, loader, optimizer):
        self.actor, self.loader, self.optimizer = actor, loader, optimizer
        self.stats = OrderedDict()

    def cycle_dataset(self):
        self.actor.train(True)
        for i, data in enumerate(self.loader, 1):
            loss, stats = self.actor(data)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self._update_stats(stats, data["train_images"].shape[0])
            held = graph_size([m.sum for m in self.stats.values()])
            print(f"[{i}/{len(self.loader)}] " + ", ".join(f"{k}: {float(m.avg):.4f}" for k, m in self.stats.items())
                  + f" | graph nodes held by stats: {held}")

    def _update_stats(self, new_stats, batch_size):
        for name, val in new_stats.items():
            if name not in self.stats:
                self.stats[name] = AverageMeter()
            self.stats[name].update(val, batch_size)

    def train(self, max_epochs):
        for epoch in range(max_epochs):
            self.stats = OrderedDict()
            self.cycle_dataset()
