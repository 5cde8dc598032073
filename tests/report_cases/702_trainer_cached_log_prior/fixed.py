"""Token LM fine-tuning with a Trainer class, callbacks and a state dict.

The loss mixes cross-entropy with a learned unigram (back-off) prior.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=20, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)
        self.unigram_logits = nn.Parameter(torch.zeros(vocab))

    def forward(self, ids):
        return self.head(torch.tanh(self.emb(ids)))


class PrintCallback:
    def on_step_end(self, trainer, state):
        if state["global_step"] % 2 == 0:
            print("step", state["global_step"], "loss", round(state["log_history"][-1], 4))


class Trainer:
    def __init__(self, model, callbacks=(), lr=1e-2, prior_weight=0.1):
        self.model = model
        self.callbacks = list(callbacks)
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.prior_weight = prior_weight
        self.state = {"global_step": 0, "log_history": []}

    def compute_loss(self, ids, targets):
        logits = self.model(ids)
        ce = F.cross_entropy(logits.flatten(0, 1), targets.flatten())
        log_prior = F.log_softmax(self.model.unigram_logits, dim=-1)
        prior_nll = -log_prior[targets].mean()
        return ce + self.prior_weight * prior_nll

    def training_step(self, ids, targets):
        self.model.train()
        loss = self.compute_loss(ids, targets)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.detach()

    def train(self, batches, epochs=2):
        for _ in range(epochs):
            for ids, targets in batches:
                loss = self.training_step(ids, targets)
                self.state["global_step"] += 1
                self.state["log_history"].append(loss.item())
                for cb in self.callbacks:
                    cb.on_step_end(self, self.state)

    def state_dict(self):
        return {"model": self.model.state_dict(),
                "optimizer": self.optimizer.state_dict(),
                "trainer_state": dict(self.state)}


def make_batches(n=3, vocab=20):
    g = torch.Generator().manual_seed(0)
    out = []
    for _ in range(n):
        seq = torch.randint(0, vocab, (4, 9), generator=g)
        out.append((seq[:, :-1], seq[:, 1:]))
    return out


if __name__ == "__main__":
    trainer = Trainer(TinyLM(), callbacks=[PrintCallback()])
    trainer.train(make_batches())
    print(sorted(trainer.state_dict()["trainer_state"]))
