"""Next-token training of a tiny causal language model with periodic evaluation."""
import torch
import torch.nn as nn

VOCAB, CTX = 24, 8


class TinyGPT(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, dim)
        self.pos = nn.Parameter(torch.zeros(CTX, dim))
        layer = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=32, batch_first=True, dropout=0.0)
        self.blocks = nn.TransformerEncoder(layer, num_layers=1)
        self.lm_head = nn.Linear(dim, VOCAB)

    def forward(self, idx):
        t = idx.shape[1]
        mask = nn.Transformer.generate_square_subsequent_mask(t)
        h = self.blocks(self.tok(idx) + self.pos[:t], mask=mask, is_causal=True)
        return self.lm_head(h)


@torch.no_grad()
def calc_loss_batch(input_batch, target_batch, model):
    logits = model(input_batch)
    return nn.functional.cross_entropy(logits.flatten(0, 1), target_batch.flatten())


def evaluate(model, batches):
    model.eval()
    losses = [calc_loss_batch(x, y, model).item() for x, y in batches]
    model.train()
    return sum(losses) / len(losses)


def make_batches(n, batch=4):
    data = torch.randint(0, VOCAB, (n, batch, CTX + 1))
    return [(d[:, :-1], d[:, 1:]) for d in data]


def train_model(model, optimizer, train_batches, val_batches, eval_freq=2):
    for step, (x, y) in enumerate(train_batches):
        optimizer.zero_grad()
        loss = calc_loss_batch(x, y, model)
        loss.backward()
        optimizer.step()
        if step % eval_freq == 0:
            print(step, "val", round(evaluate(model, val_batches), 4))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyGPT()
    opt = torch.optim.AdamW(model.parameters(), lr=4e-4, weight_decay=0.1)
    train_model(model, opt, make_batches(4), make_batches(2))
