import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
chars = list(".abcdefghijklmnopqrstuvwxyz")
stoi = {c: i for i, c in enumerate(chars)}
words = ["emma", "olivia", "ava", "isabella", "sophia"]

xs, ys = [], []
for w in words:
    seq = ["."] + list(w) + ["."]
    for c1, c2 in zip(seq, seq[1:]):
        xs.append(stoi[c1])
        ys.append(stoi[c2])
xs, ys = torch.tensor(xs), torch.tensor(ys)
num = xs.nelement()

W = torch.randn((27, 27), generator=g, requires_grad=True)
optimizer = torch.optim.SGD([W], lr=10.0)
xenc = F.one_hot(xs, num_classes=27).float()

for k in range(5):
    # forward pass: rebuilt every step from the current W
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdim=True)
    loss = -probs[torch.arange(num), ys].log().mean()
    print(k, loss.item())
    # backward pass
    optimizer.zero_grad()
    loss.backward()
    # update
    optimizer.step()
