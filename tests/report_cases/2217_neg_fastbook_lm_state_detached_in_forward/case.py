import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten',
         'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen',
         'nineteen', 'twenty', 'thirty', 'forty', 'fifty', '.']
word2idx = {w: i for i, w in enumerate(words)}


def number_words(n):
    if n < 20:
        return [words[n]]
    tens = ['twenty', 'thirty', 'forty', 'fifty'][n // 10 - 2]
    return [tens] + ([words[n % 10]] if n % 10 else [])


# "human numbers": one . two . three . ... as one long token stream
tokens = []
for n in range(1, 60):
    tokens += number_words(n) + ['.']
nums = torch.tensor([word2idx[w] for w in tokens])
vocab_sz = len(words)


def group_chunks(ds, bs):
    m = len(ds) // bs
    new_ds = []
    for i in range(m):
        new_ds += [ds[i + m * j] for j in range(bs)]
    return new_ds


class LMModel3(nn.Module):
    def __init__(self, vocab_sz, n_hidden):
        super().__init__()
        self.i_h = nn.Embedding(vocab_sz, n_hidden)
        self.h_h = nn.Linear(n_hidden, n_hidden)
        self.h_o = nn.Linear(n_hidden, vocab_sz)
        self.h = 0

    def forward(self, x):
        for i in range(3):
            self.h = self.h + self.i_h(x[:, i])
            self.h = F.relu(self.h_h(self.h))
        out = self.h_o(self.h)
        self.h = self.h.detach()
        return out

    def reset(self):
        self.h = 0


def make_dls(bs=16):
    seqs = [(nums[i:i + 3], nums[i + 3]) for i in range(0, len(nums) - 4, 3)]
    cut = int(len(seqs) * 0.8)
    train_ds = group_chunks(seqs[:cut], bs)
    valid_ds = group_chunks(seqs[cut:], bs)

    def batches(ds):
        out = []
        for i in range(0, len(ds) - bs + 1, bs):   # drop_last: the state needs a fixed batch size
            xb = torch.stack([x for x, _ in ds[i:i + bs]])
            yb = torch.stack([y for _, y in ds[i:i + bs]])
            out.append((xb, yb))
        return out
    return batches(train_ds), batches(valid_ds)


def fit(model, train_dl, valid_dl, n_epoch=4, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(n_epoch):
        model.train()
        model.reset()                      # ModelResetter: before_train
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        model.reset()                      # ModelResetter: before_validate
        correct = total = 0
        with torch.no_grad():
            for xb, yb in valid_dl:
                preds = model(xb)
                correct += (preds.argmax(1) == yb).sum().item()
                total += yb.numel()
        print(f"epoch {epoch} train_loss {loss.item():.4f} accuracy {correct / max(total, 1):.3f}")


if __name__ == '__main__':
    train_dl, valid_dl = make_dls()
    fit(LMModel3(vocab_sz, 64), train_dl, valid_dl)
