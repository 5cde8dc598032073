import torch
import torch.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "harper", "evelyn", "abigail"]
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
block_size = 3


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + ".":
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    return torch.tensor(X), torch.tensor(Y)


Xtr, Ytr = build_dataset(words)
vocab_size = len(stoi)

g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab_size, 10), generator=g)
W1 = torch.randn((30, 64), generator=g) * 0.2
b1 = torch.randn(64, generator=g) * 0.01
W2 = torch.randn((64, vocab_size), generator=g) * 0.01
b2 = torch.zeros(vocab_size)
parameters = [C, W1, b1, W2, b2]
for p in parameters:
    p.requires_grad = True

optimizer = torch.optim.SGD(parameters, lr=0.1)
emb = C[Xtr]  # (N, block_size, 10)

lossi = []
for i in range(20):
    # minibatch construct
    ix = torch.randint(0, Xtr.shape[0], (16,), generator=g)

    # forward pass
    h = torch.tanh(emb[ix].view(-1, 30) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Ytr[ix])

    # backward pass
    optimizer.zero_grad()
    loss.backward()

    # update
    optimizer.step()
    lossi.append(loss.log10().item())

print(f"final loss {10 ** lossi[-1]:.4f}")
