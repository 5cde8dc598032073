"""Pre-training a tiny decoder-only language model (torchtitan-style train loop): losses are kept on
device between log steps to avoid a host sync every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def graph_nodes(tensors):
    seen, stack = set(), [t.grad_fn for t in tensors if t.grad_fn is not None]
    while stack:
        fn = stack.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class TinyGPT(nn.Module):
    def __init__(self, vocab=64, dim=32, n_layers=2, seq_len=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(seq_len, dim))
        layer = nn.TransformerEncoderLayer(dim, 4, 4 * dim, dropout=0.0, batch_first=True, norm_first=True)
        self.layers = nn.TransformerEncoder(layer, n_layers)
        self.out = nn.Linear(dim, vocab)
        self.register_buffer("mask", nn.Transformer.generate_square_subsequent_mask(seq_len))

    def forward(self, tokens):
        h = self.tok(tokens) + self.pos[: tokens.size(1)]
        return self.out(self.layers(h, mask=self.mask[: tokens.size(1), : tokens.size(1)], is_causal=True))


def train(steps=12, log_freq=100, checkpoint_every=4):
    model = TinyGPT()
    optimizer = torch.optim.AdamW(model.parameters(), lr=8e-4, weight_decay=0.1)
    losses_since_last_log = []
    for step in range(1, steps + 1):
        batch = torch.randint(0, 64, (4, 17))
        inputs, labels = batch[:, :-1], batch[:, 1:]
        pred = model(inputs)
        loss = F.cross_entropy(pred.flatten(0, 1), labels.flatten())
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()
        losses_since_last_log.append(loss)
        if step % log_freq == 0:
            avg_loss = torch.stack(losses_since_last_log).mean().item()
            print(f"step {step} loss {avg_loss:.4f}")
            losses_since_last_log.clear()
        if step % checkpoint_every == 0:
            print(f"step {step}: {len(losses_since_last_log)} losses pending, "
                  f"graph nodes held: {graph_nodes(losses_since_last_log)}")


if __name__ == "__main__":
    train()
