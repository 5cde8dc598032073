"""Full fine-tuning recipe (torchtune style) for a tiny causal LM with
token-normalised gradient accumulation across micro-batches."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

CROSS_ENTROPY_IGNORE_IDX = -100


class TinyLM(nn.Module):
    def __init__(self, vocab, dim, n_layers=2, n_heads=4):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(64, dim))
        layer = nn.TransformerEncoderLayer(dim, n_heads, 4 * dim, dropout=0.0, batch_first=True)
        self.layers = nn.TransformerEncoder(layer, n_layers)
        self.output = nn.Linear(dim, vocab)

    def forward(self, tokens):
        L = tokens.size(1)
        mask = nn.Transformer.generate_square_subsequent_mask(L)
        h = self.layers(self.tok(tokens) + self.pos[:L], mask=mask, is_causal=True)
        return self.output(h)


def scale_grads(model, scaler):
    for p in model.parameters():
        if p.grad is not None:
            p.grad.mul_(scaler)


class FullFinetuneRecipe:
    def __init__(self, cfg):
        self.cfg = cfg
        self._model = TinyLM(cfg.vocab, cfg.dim)
        self._optimizer = torch.optim.AdamW(self._model.parameters(), lr=cfg.lr)
        self._gradient_accumulation_steps = cfg.gradient_accumulation_steps

    def _loss_fn(self, logits, labels):
        # mean over non-ignored tokens of this micro-batch
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), labels.reshape(-1),
                               ignore_index=CROSS_ENTROPY_IGNORE_IDX)

    def batches(self, n):
        for _ in range(n):
            tokens = torch.randint(0, self.cfg.vocab, (4, 24))
            labels = torch.roll(tokens, -1, dims=1)
            lengths = torch.randint(8, 24, (4,))
            pad = torch.arange(24).unsqueeze(0) >= lengths.unsqueeze(1)
            labels[pad] = CROSS_ENTROPY_IGNORE_IDX
            labels[:, -1] = CROSS_ENTROPY_IGNORE_IDX
            yield tokens, labels

    def train(self):
        self._optimizer.zero_grad()
        running_loss, num_tokens = 0, 0
        for idx, (tokens, labels) in enumerate(self.batches(self.cfg.micro_batches)):
            current_num_tokens = (labels != CROSS_ENTROPY_IGNORE_IDX).sum()
            num_tokens += current_num_tokens
            logits = self._model(tokens)
            # un-normalise so that the accumulated gradient is a token-weighted sum
            current_loss = self._loss_fn(logits, labels) * current_num_tokens
            running_loss += current_loss.detach()
            current_loss.backward()

            if (idx + 1) % self._gradient_accumulation_steps == 0:
                scale_grads(self._model, 1 / num_tokens)
                grad_norm = nn.utils.clip_grad_norm_(self._model.parameters(), max_norm=1.0)
                self._optimizer.step()
                self._optimizer.zero_grad(set_to_none=True)
                loss_to_log = running_loss.item() / num_tokens.item()
                print(f"step {(idx + 1) // self._gradient_accumulation_steps} loss {loss_to_log:.4f} "
                      f"grad_norm {grad_norm.item():.3f}")
                running_loss, num_tokens = 0, 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vocab", type=int, default=100)
    parser.add_argument("--dim", type=int, default=32)
    parser.add_argument("--lr", type=float, default=2e-4)
    parser.add_argument("--gradient_accumulation_steps", type=int, default=4)
    parser.add_argument("--micro_batches", type=int, default=16)
    cfg = parser.parse_args()
    torch.manual_seed(0)
    FullFinetuneRecipe(cfg).train()


if __name__ == "__main__":
    main()
