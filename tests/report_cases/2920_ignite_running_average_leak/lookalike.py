"""Event-driven training engine (ignite-like) with a RunningAverage of the batch loss that is
attached to the engine and printed by a progress handler."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def graph_size(t):
    if not torch.is_tensor(t) or t.grad_fn is None:
        return 0
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class Engine:
    def __init__(self, process_function):
        self.process_function = process_function
        self.handlers = []
        self.state = type("State", (), {})()

    def add_event_handler(self, handler):
        self.handlers.append(handler)

    def run(self, data, max_epochs=1):
        self.state.iteration = 0
        for epoch in range(max_epochs):
            for batch in data:
                self.state.iteration += 1
                self.state.output = self.process_function(self, batch)
                for h in self.handlers:
                    h(self)


class RunningAverage:
    def __init__(self, alpha=0.98, output_transform=lambda x: x):
        self.alpha = alpha
        self.output_transform = output_transform
        self._value = None

    def iteration_completed(self, engine):
        output = self.output_transform(engine.state.output)
        if self._value is None:
            self._value = output
        else:
            self._value = self._value * self.alpha + (1.0 - self.alpha) * output

    def attach(self, engine, name):
        def handler(e):
            self.iteration_completed(e)
            e.state.metrics = getattr(e.state, "metrics", {})
            e.state.metrics[name] = self._value
        engine.add_event_handler(handler)


model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)


def update(engine, batch):
    model.train()
    x, y = batch
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss


trainer = Engine(update)
avg = RunningAverage(output_transform=lambda out: out.detach())
avg.attach(trainer, "running_loss")
trainer.add_event_handler(lambda e: print(
    f"iter {e.state.iteration} running_loss {float(e.state.metrics['running_loss']):.4f} "
    f"graph nodes held: {graph_size(e.state.metrics['running_loss'])}"))
data = [(torch.randn(8, 20), torch.randint(0, 3, (8,))) for _ in range(6)]
trainer.run(data, max_epochs=1)
