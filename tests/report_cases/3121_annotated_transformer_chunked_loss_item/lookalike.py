"""Annotated-Transformer style training: the generator + label-smoothed loss are applied to the
decoder output in chunks (as in MultiGPULossCompute) to save memory, and the chunk gradients are
pushed back into the decoder output afterwards."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, PAD = 40, 0


class EncoderDecoder(nn.Module):
    def __init__(self, d_model=32):
        super().__init__()
        self.src_embed = nn.Embedding(VOCAB, d_model)
        self.tgt_embed = nn.Embedding(VOCAB, d_model)
        self.transformer = nn.Transformer(d_model, 4, 1, 1, 64, dropout=0.0, batch_first=True)
        self.generator = nn.Linear(d_model, VOCAB)

    def forward(self, src, tgt):
        return self.transformer(self.src_embed(src), self.tgt_embed(tgt))


class LabelSmoothing(nn.Module):
    def __init__(self, smoothing=0.1):
        super().__init__()
        self.smoothing = smoothing

    def forward(self, log_probs, target):
        true_dist = torch.full_like(log_probs, self.smoothing / (VOCAB - 2))
        true_dist.scatter_(1, target.unsqueeze(1), 1.0 - self.smoothing)
        true_dist[:, PAD] = 0
        true_dist[target == PAD] = 0
        return F.kl_div(log_probs, true_dist, reduction="sum")


class ChunkedLossCompute:
    def __init__(self, generator, criterion, opt, chunk_size=3):
        self.generator, self.criterion, self.opt, self.chunk_size = generator, criterion, opt, chunk_size

    def __call__(self, out, targets, normalize):
        total = 0.0
        out_grad = []
        for i in range(0, out.size(1), self.chunk_size):
            out_column = out[:, i:i + self.chunk_size].detach().requires_grad_(self.opt is not None)
            gen = F.log_softmax(self.generator(out_column), dim=-1)
            loss = self.criterion(gen.reshape(-1, VOCAB), targets[:, i:i + self.chunk_size].reshape(-1))
            l = loss.sum() / normalize.float()
            if self.opt is not None:
                l.backward()
                out_grad.append(out_column.grad.clone())
            total += loss.sum().item() / normalize.item()
        if self.opt is not None:
            out.backward(gradient=torch.cat(out_grad, dim=1))
            self.opt.step()
            self.opt.zero_grad()
        return total * normalize.float()


def run_epoch(model, loss_compute, n_batches=3):
    for b in range(n_batches):
        src = torch.randint(1, VOCAB, (4, 7))
        tgt = torch.cat([torch.ones(4, 1, dtype=torch.long), src[:, :-1]], dim=1)
        ntokens = (src != PAD).sum()
        out = model(src, tgt)
        loss = loss_compute(out, src, ntokens)
        print(f"batch {b} loss per token {float(loss) / ntokens.item():.4f}")


if __name__ == "__main__":
    model = EncoderDecoder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
    run_epoch(model, ChunkedLossCompute(model.generator, LabelSmoothing(), opt))
