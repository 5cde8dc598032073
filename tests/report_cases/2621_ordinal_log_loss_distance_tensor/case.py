from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@dataclass
class SequenceClassifierOutput:
    logits: torch.Tensor


class TinyClassifier(nn.Module):
    def __init__(self, vocab=40, hidden=16, num_labels=5):
        super().__init__()
        self.num_labels = num_labels
        self.emb = nn.EmbeddingBag(vocab, hidden)
        self.out = nn.Linear(hidden, num_labels)
        idx = torch.arange(num_labels)
        self.dist_matrix = (idx[:, None] - idx[None, :]).abs().tolist()

    def forward(self, input_ids, labels=None):
        return SequenceClassifierOutput(self.out(self.emb(input_ids)))


class OLLTrainer:
    """Ordinal log-loss: -log(1 - p_k) weighted by the squared distance between k and the true class."""

    def __init__(self, model, alpha=2):
        self.model, self.alpha = model, alpha
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def compute_loss(self, model, inputs, return_outputs=False):
        num_classes = model.num_labels
        dist_matrix = model.dist_matrix
        labels = inputs["labels"]
        outputs = model(**inputs)
        logits = outputs.logits
        probas = F.softmax(logits, dim=1)
        true_labels = [num_classes * [labels[k].item()] for k in range(len(labels))]
        label_ids = len(labels) * [[k for k in range(num_classes)]]
        distances = [[float(dist_matrix[true_labels[j][i]][label_ids[j][i]]) for i in range(num_classes)]
                     for j in range(len(labels))]
        distances_tensor = torch.tensor(distances, requires_grad=True)
        err = -torch.log(1 - probas + 1e-8) * abs(distances_tensor) ** self.alpha
        loss = torch.sum(err, axis=1).mean()
        return (loss, outputs) if return_outputs else loss

    def training_step(self, inputs):
        loss = self.compute_loss(self.model, inputs)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


trainer = OLLTrainer(TinyClassifier())
for step in range(6):
    inputs = {"input_ids": torch.randint(0, 40, (8, 5)), "labels": torch.randint(0, 5, (8,))}
    print(step, round(trainer.training_step(inputs), 4))
