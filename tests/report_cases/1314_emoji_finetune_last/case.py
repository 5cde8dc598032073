"""Finetune only the last layer of a pretrained emoji model on a small sentiment set."""
import random

import torch
import torch.nn as nn
from torch.autograd import Variable

from model import TorchMojiLike

NB_TOKENS = 80
MAXLEN = 10


def tokenize(texts):
    """Very small stand-in tokenizer: returns padded python lists of ids."""
    out = []
    for t in texts:
        ids = [(hash(w) % (NB_TOKENS - 1)) + 1 for w in t.split()][:MAXLEN]
        out.append(ids + [0] * (MAXLEN - len(ids)))
    return out


def make_dataset(n, rng):
    words = ["good", "bad", "great", "awful", "movie", "plot", "actors", "boring", "fun", "meh"]
    texts, labels = [], []
    for _ in range(n):
        ws = [rng.choice(words) for _ in range(rng.randint(3, MAXLEN))]
        texts.append(" ".join(ws))
        labels.append(int(sum(w in ("good", "great", "fun") for w in ws) > 1))
    return texts, labels


def finetune_last(model, texts, labels, epochs=2, batch_size=8, lr=1e-3):
    model.freeze_all_but(["output_layer"])
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.Adam(trainable, lr=lr)
    loss_op = nn.CrossEntropyLoss()
    history = []
    for epoch in range(epochs):
        model.train()
        for start in range(0, len(texts), batch_size):
            X = tokenize(texts[start:start + batch_size])
            y = torch.tensor(labels[start:start + batch_size])
            optimizer.zero_grad()
            output = model(X)
            loss = loss_op(output, y)
            loss = Variable(loss, requires_grad=True)
            loss.backward()
            optimizer.step()
            history.append(loss.item())
        print(f"epoch {epoch}: mean loss {sum(history[-4:]) / len(history[-4:]):.4f}")
    return history


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = random.Random(0)
    texts, labels = make_dataset(24, rng)
    model = TorchMojiLike(nb_classes=2, nb_tokens=NB_TOKENS)
    finetune_last(model, texts, labels)
