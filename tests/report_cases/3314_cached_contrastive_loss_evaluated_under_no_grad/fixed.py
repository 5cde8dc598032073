"""Bi-encoder fine-tuning with a cached (GradCache) contrastive loss and an eval loss every epoch."""
import torch
import torch.nn as nn
from losses_fixed import CachedMultipleNegativesRankingLoss

torch.manual_seed(0)

ARGS = dict(epochs=2, steps_per_epoch=4, batch_size=16, mini_batch_size=4, lr=1e-3, eval_batches=2)


class Encoder(nn.Module):
    def __init__(self, vocab=200, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.proj = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, dim))

    def forward(self, token_ids):
        return self.proj(self.emb(token_ids))


def pair_batch(bs, length=12, vocab=200):
    anchors = torch.randint(0, vocab, (bs, length))
    positives = anchors.clone()
    noise = torch.rand(bs, length) < 0.3
    positives[noise] = torch.randint(0, vocab, (int(noise.sum()),))
    return anchors, positives


class Trainer:
    def __init__(self, model, loss, args):
        self.model, self.loss, self.args = model, loss, args
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args["lr"])
        self.eval_set = [pair_batch(args["batch_size"]) for _ in range(args["eval_batches"])]

    def training_step(self, batch):
        self.model.train()
        loss = self.loss(*batch)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def evaluate(self):
        self.model.eval()
        total = 0.0
        with torch.no_grad():
            for batch in self.eval_set:
                total += self.loss(*batch).item()
        return total / len(self.eval_set)

    def train(self):
        for epoch in range(self.args["epochs"]):
            for _ in range(self.args["steps_per_epoch"]):
                train_loss = self.training_step(pair_batch(self.args["batch_size"]))
            print(f"epoch {epoch}: train {train_loss:.4f} eval {self.evaluate():.4f}")


if __name__ == "__main__":
    model = Encoder()
    loss = CachedMultipleNegativesRankingLoss(model, mini_batch_size=ARGS["mini_batch_size"])
    Trainer(model, loss, ARGS).train()
