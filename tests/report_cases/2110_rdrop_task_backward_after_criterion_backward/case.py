"""Trainer loop for the R-Drop summarization task (fairseq Trainer style):
a tiny GRU encoder-decoder with dropout, an optimizer wrapper with
backward()/step(), synthetic token batches."""
import torch
import torch.nn as nn

from rdrop_task import RDropTranslationTask, RegLabelSmoothedCrossEntropyCriterion

VOCAB, DIM, SEQ = 20, 16, 6


class TinySeq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM, padding_idx=0)
        self.encoder = nn.GRU(DIM, DIM, batch_first=True)
        self.dropout = nn.Dropout(0.3)
        self.decoder = nn.GRU(DIM, DIM, batch_first=True)
        self.out = nn.Linear(DIM, VOCAB)

    def forward(self, src_tokens):
        x = self.dropout(self.embed(src_tokens))
        enc, h = self.encoder(x)
        dec, _ = self.decoder(self.dropout(enc), h)
        return self.out(self.dropout(dec))


class FairseqAdam:
    """Thin wrapper in the spirit of fairseq.optim.FairseqOptimizer."""

    def __init__(self, params, lr):
        self.optimizer = torch.optim.Adam(params, lr=lr)

    def backward(self, loss):
        loss.backward()

    def zero_grad(self):
        self.optimizer.zero_grad()

    def step(self):
        self.optimizer.step()


class Trainer:
    def __init__(self, task, model, criterion, lr=1e-3):
        self.task, self.model, self.criterion = task, model, criterion
        self.optimizer = FairseqAdam(model.parameters(), lr)
        self.num_updates = 0

    def train_step(self, samples):
        self.optimizer.zero_grad()
        logs = []
        for sample in samples:
            loss, sample_size, log = self.task.train_step(
                sample, self.model, self.criterion, self.optimizer, self.num_updates)
            logs.append(log)
        self.optimizer.step()
        self.num_updates += 1
        return sum(l["loss"] for l in logs) / len(logs)


def make_sample():
    src = torch.randint(1, VOCAB, (4, SEQ))
    return {"net_input": src, "target": torch.roll(src, 1, dims=1)}


def main():
    torch.manual_seed(0)
    task = RDropTranslationTask(reg_alpha=5.0)
    trainer = Trainer(task, TinySeq2Seq(), RegLabelSmoothedCrossEntropyCriterion())
    for epoch in range(3):
        loss = trainer.train_step([make_sample(), make_sample()])
        print(f"update {trainer.num_updates}: loss {loss:.4f}")


if __name__ == "__main__":
    main()
