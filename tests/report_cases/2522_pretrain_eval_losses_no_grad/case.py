import math
import typing

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, CTX, DIM = 50, 12, 32


class TinyCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Embedding(CTX, DIM)
        layer = nn.TransformerEncoderLayer(DIM, 4, 64, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, 2)
        self.lm_head = nn.Linear(DIM, VOCAB)

    def forward(self, input_ids):
        T = input_ids.size(1)
        h = self.tok(input_ids) + self.pos(torch.arange(T))
        causal = torch.triu(torch.full((T, T), float('-inf')), diagonal=1)
        return self.lm_head(self.blocks(h, mask=causal))


def compute_losses(model, batches: typing.List[torch.Tensor]) -> typing.List[float]:
    """Average next-token loss of each batch (used to score models on the eval pages)."""
    model.eval()
    losses = []
    for inputs in batches:
        logits = model(inputs)
        shift_logits = logits[..., :-1, :].contiguous()
        shift_labels = inputs[..., 1:].contiguous()
        loss = F.cross_entropy(shift_logits.view(-1, VOCAB), shift_labels.view(-1))
        losses.append(loss.item() if not math.isnan(loss.item()) else math.inf)
    model.train()
    return losses


def sample_batches(n, bs=4):
    return [torch.randint(0, VOCAB, (bs, CTX)) for _ in range(n)]


model = TinyCausalLM()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
eval_pages = sample_batches(4)

for epoch in range(2):
    for inputs in sample_batches(4):
        logits = model(inputs)
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), inputs[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    eval_losses = compute_losses(model, eval_pages)
    print('epoch %d  train %.4f  eval %.4f' % (epoch, loss.item(), sum(eval_losses) / len(eval_losses)))
