"""Multilabel text classifier (bag-of-embeddings + MLP) with an epoch-level AUROC computed
from the outputs collected in training_step (Lightning 2.0 migration pattern)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from minilightning import LightningModule, Trainer

torch.manual_seed(0)
VOCAB, N_LABELS = 50, 4


def auroc(scores, targets):
    """Mean one-vs-rest AUROC via pairwise ranking."""
    aucs = []
    for k in range(scores.shape[1]):
        pos, neg = scores[targets[:, k] == 1, k], scores[targets[:, k] == 0, k]
        if len(pos) and len(neg):
            aucs.append((pos[:, None] > neg[None, :]).float().mean())
    return torch.stack(aucs).mean()


class LitTagger(LightningModule):
    def __init__(self):
        super().__init__()
        self.embed = nn.EmbeddingBag(VOCAB, 16, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, N_LABELS))
        self.training_step_outputs = []

    def forward(self, tokens):
        return self.mlp(self.embed(tokens))

    def training_step(self, batch, batch_idx):
        tokens, targets = batch
        logits = self(tokens)
        loss = F.binary_cross_entropy_with_logits(logits, targets)
        self.training_step_outputs.append({"logits": logits.detach(), "targets": targets})
        self.log("train_loss", loss)
        return loss

    def on_train_epoch_end(self):
        scores = torch.cat([o["logits"] for o in self.training_step_outputs]).sigmoid()
        targets = torch.cat([o["targets"] for o in self.training_step_outputs])
        self.log("train_auroc", auroc(scores, targets))
        print("epoch AUROC", round(self.logged["train_auroc"], 3))
        self.training_step_outputs.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)


if __name__ == "__main__":
    batches = [(torch.randint(0, VOCAB, (8, 6)), (torch.rand(8, N_LABELS) > 0.5).float()) for _ in range(5)]
    Trainer(max_epochs=2).fit(LitTagger(), batches)
