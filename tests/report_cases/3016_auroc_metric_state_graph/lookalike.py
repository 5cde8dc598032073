"""Multilabel sequence classifier (9 binary labels, -1 = unknown) trained with a masked BCE
loss; a torchmetrics-style MultilabelAUROC metric object tracks training AUROC over the epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
NUM_LABELS, SEQ_LEN, CHANNELS = 9, 40, 20


def graph_size(tensors):
    stack, seen = [getattr(t, "grad_fn", None) for t in tensors], set()
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


def binary_auroc(preds, target):
    pos, neg = preds[target == 1], preds[target == 0]
    if len(pos) == 0 or len(neg) == 0:
        return preds.new_tensor(0.5)
    return (pos[:, None] > neg[None, :]).float().mean() + 0.5 * (pos[:, None] == neg[None, :]).float().mean()


class MultilabelAUROC(nn.Module):
    """Keeps every batch's preds/target in list states and computes macro AUROC in compute()."""

    def __init__(self, num_labels, ignore_index=-1):
        super().__init__()
        self.num_labels, self.ignore_index = num_labels, ignore_index
        self.reset()

    def reset(self):
        self.preds, self.target = [], []

    def update(self, preds, target):
        self.preds.append(preds)
        self.target.append(target)

    def compute(self):
        preds, target = torch.cat(self.preds), torch.cat(self.target)
        scores = [binary_auroc(preds[:, j][target[:, j] != self.ignore_index],
                               target[:, j][target[:, j] != self.ignore_index]) for j in range(self.num_labels)]
        return torch.stack(scores).mean()

    def forward(self, preds, target):
        self.update(preds, target)
        return binary_auroc(preds.flatten(), target.flatten())


class SeqTagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(CHANNELS, 32, 5, padding=2), nn.ReLU(),
                                  nn.Conv1d(32, 32, 5, padding=2), nn.ReLU())
        self.head = nn.Linear(32, NUM_LABELS)

    def forward(self, x):                       # x: (batch, seq, channels)
        h = self.conv(x.transpose(1, 2)).amax(dim=2)
        return torch.sigmoid(self.head(h))


def masked_bce(preds, labels):
    mask = labels != -1
    return F.binary_cross_entropy(preds[mask], labels[mask].float())


def train_epoch(model, optimizer, n_batches=8):
    for i in range(n_batches):
        inputs = torch.randn(16, SEQ_LEN, CHANNELS)
        labels = torch.randint(-1, 2, (16, NUM_LABELS))
        predictions = model(inputs)
        loss = masked_bce(predictions, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        batch_auc = binary_auroc(predictions.flatten(), labels.flatten())  # per-batch value, not stored
        if i % 4 == 0:
            print(f"batch {i}: loss {loss.item():.4f} auroc {batch_auc.item():.3f}")


@torch.no_grad()
def validate(model, met, n_batches=3):
    model.eval()
    met.reset()
    for _ in range(n_batches):
        inputs = torch.randn(16, SEQ_LEN, CHANNELS)
        labels = torch.randint(-1, 2, (16, NUM_LABELS))
        met(model(inputs), labels)
    model.train()
    print(f"val AUROC {met.compute():.3f} | graph nodes held by metric states: {graph_size(met.preds)}")


def main():
    model = SeqTagger()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    met = MultilabelAUROC(NUM_LABELS)
    for epoch in range(2):
        train_epoch(model, optimizer)
        validate(model, met)


if __name__ == "__main__":
    main()
