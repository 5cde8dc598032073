import torch
import torch.nn as nn


class SurnameClassifier(nn.Module):
    def __init__(self, vocab=30, embed=16, hidden=32, num_labels=5):
        super().__init__()
        self.num_labels = num_labels
        self.embedding = nn.EmbeddingBag(vocab, embed)
        self.encoder = nn.Sequential(nn.Linear(embed, hidden), nn.ReLU())
        self.classifier = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, num_labels))

    def forward(self, tokens):
        return self.classifier(self.encoder(self.embedding(tokens)))
