"""Training a small MLP made of growing modules: while training, the second layer accumulates the input
statistic S it will need when new hidden neurons are added at the end of the epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from growing import LinearGrowingModule

torch.manual_seed(0)


def count_graph_nodes(t):
    seen, stack = set(), [t.grad_fn] if t.grad_fn is not None else []
    while stack:
        fn = stack.pop()
        if fn not in seen:
            seen.add(fn)
            stack.extend(f for f, _ in fn.next_functions if f is not None)
    return len(seen)


def main(epochs=2, batches=5):
    first = nn.Linear(10, 16)
    second = LinearGrowingModule(16, 3)
    model = nn.Sequential(first, nn.ReLU(), second)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(epochs):
        for _ in range(batches):
            x, y = torch.randn(32, 10), torch.randint(0, 3, (32,))
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        s = second.tensor_s()
        print(f"epoch {epoch} loss {loss.item():.4f} trace(S) {s.trace().item():.3f} "
              f"graph nodes held by S: {count_graph_nodes(s)}")


if __name__ == "__main__":
    main()
