import torch
import torch.nn as nn


class BasicTrainer:
    def __init__(self, model, config):
        self.config = config
        self.device = torch.device("cpu")
        self.model = model.to(self.device)
        self.loss = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config["lr"])

    def finetune_last_layer(self, num_labels):
        # freeze all layers
        for param in self.model.parameters():
            param.requires_grad = False
        # Modify the last layer
        number_features = self.model.classifier[-1].in_features
        features = list(self.model.classifier.children())[:-1]  # Remove last layer
        features.extend([nn.Linear(number_features, num_labels)])
        self.model.classifier = nn.Sequential(*features)
        self.model.num_labels = num_labels
        self.model = self.model.to(self.device)

    def reset_optimizer(self):
        params = [p for p in self.model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.Adam(params, lr=self.config["lr"])

    def train_epoch(self, batches):
        self.model.train()
        total = 0.0
        for tokens, labels in batches:
            self.optimizer.zero_grad()
            loss = self.loss(self.model(tokens), labels)
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(batches)
