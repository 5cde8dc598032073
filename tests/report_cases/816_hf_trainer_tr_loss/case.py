"""Hugging Face Trainer-style loop with gradient accumulation and periodic loss logging."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class SeqClassifier(nn.Module):
    def __init__(self, vocab=30, dim=16, n_labels=2):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim)
        self.classifier = nn.Linear(dim, n_labels)

    def forward(self, input_ids, labels=None):
        logits = self.classifier(self.embed(input_ids))
        loss = nn.functional.cross_entropy(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}


class Trainer:
    def __init__(self, model, grad_accum=2, logging_steps=2):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)
        self.grad_accum, self.logging_steps = grad_accum, logging_steps
        self.state = {"global_step": 0, "log_history": []}

    def compute_loss(self, model, inputs):
        return model(**inputs)["loss"]

    def training_step(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, inputs) / self.grad_accum
        loss.backward()
        return loss.detach()

    def train(self, batches):
        tr_loss = torch.tensor(0.0)
        last_logged = 0
        for step, inputs in enumerate(batches):
            tr_loss_step = self.training_step(self.model, inputs)
            tr_loss += tr_loss_step
            if (step + 1) % self.grad_accum == 0:
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                self.optimizer.step()
                self.model.zero_grad()
                self.state["global_step"] += 1
                if self.state["global_step"] % self.logging_steps == 0:
                    tr_loss_scalar = tr_loss.item()
                    tr_loss -= tr_loss
                    steps = self.state["global_step"] - last_logged
                    self.state["log_history"].append(round(tr_loss_scalar / steps, 4))
                    last_logged = self.state["global_step"]
        return self.state


batches = [{"input_ids": torch.randint(0, 30, (8, 6)), "labels": torch.randint(0, 2, (8,))} for _ in range(12)]
print(Trainer(SeqClassifier()).train(batches))
