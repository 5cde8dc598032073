import torch
import torch.nn as nn
import torch.nn.functional as F


class SequenceClassifier(nn.Module):
    """Encoder + classification head; without labels it behaves as in the test phase."""

    def __init__(self, vocab=100, dim=32, n_labels=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.classifier = nn.Linear(dim, n_labels)

    def forward(self, input_ids, label_ids=None):
        out, _ = self.encoder(self.embed(input_ids))
        logits = self.classifier(out.mean(1))
        if label_ids is None:
            # unlabelled batch: the logits stay attached so an adversarial loss can train the encoder
            return {"logits": logits}
        return {"logits": logits, "loss": F.cross_entropy(logits, label_ids)}


class DomainDiscriminator(nn.Module):
    def __init__(self, n_labels=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_labels, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, logits):
        return self.net(logits.softmax(-1))
