import numpy as np
import torch

torch.manual_seed(0)
np.random.seed(0)

# synthetic stand-in for the MNIST tensors used in Appendix A.4
train_data = (torch.rand(2000, 28, 28) * 255).to(torch.uint8)
train_labels = (train_data.float().mean(dim=(1, 2)) > 127.5).long() + 2 * (train_data[:, 14, 14] > 127).long()


def nn(x, w1, w2):
    l1 = x @ w1
    l1 = torch.relu(l1)
    l2 = l1 @ w2
    return l2


def graph_nodes(losses):
    seen, stack = set(), [l.grad_fn for l in losses if torch.is_tensor(l) and l.grad_fn is not None]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


w1 = torch.randn(784, 200, requires_grad=True)
w2 = torch.randn(200, 10, requires_grad=True)
optimizer = torch.optim.SGD([w1, w2], lr=1e-4)

epochs = 30
batch_size = 100
losses = []
lossfn = torch.nn.CrossEntropyLoss()
for i in range(epochs):
    rid = np.random.randint(0, train_data.shape[0], size=batch_size)
    x = train_data[rid].float().flatten(start_dim=1)
    x /= x.max()
    pred = nn(x, w1, w2)
    target = train_labels[rid]
    loss = lossfn(pred, target)
    losses.append(loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if i % 10 == 9:
        print(i, "graph nodes kept alive by `losses`:", graph_nodes(losses))

print("final loss", float(losses[-1]))
