import random

import torch
import torch.nn.functional as F

from rnn import PlainRNN, MemoryRNN

torch.manual_seed(0)
random.seed(0)

ALPHABET = ['<', '>', 'a', 'b', 'c', '(', ')']
IDX = {ch: i for i, ch in enumerate(ALPHABET)}


def random_word(length=8):
    body = [random.choice('abc()') for _ in range(length)]
    return '<' + ''.join(body) + '>'


def is_valid(word):
    depth = 0
    for ch in word[1:-1]:
        depth += (ch == '(') - (ch == ')')
        if depth < 0:
            return False
    return depth == 0


def make_batch(n=16):
    words = [random_word() for _ in range(n)]
    x = torch.tensor([[IDX[c] for c in w] for w in words])
    y = torch.tensor([float(is_valid(w)) for w in words])
    return x, y


def run_experiment(model, optimizer, steps=10):
    for step in range(steps):
        x, y = make_batch()
        loss = F.binary_cross_entropy_with_logits(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


for cls in (PlainRNN, MemoryRNN):
    model = cls(len(ALPHABET), 16)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for repeat in range(2):
        model.reset()
        final_loss = run_experiment(model, optimizer)
        print('%s repeat %d  final loss %.4f' % (cls.__name__, repeat, final_loss))
