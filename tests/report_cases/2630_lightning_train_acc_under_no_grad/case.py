import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Accuracy:
    def __init__(self):
        self.correct, self.total = 0, 0

    def update(self, preds, target):
        self.correct += int((preds == target).sum())
        self.total += target.numel()

    def compute(self):
        return self.correct / max(self.total, 1)


class LightningModel(nn.Module):
    def __init__(self, model, learning_rate):
        super().__init__()
        self.learning_rate = learning_rate
        self.model = model
        self.train_acc = Accuracy()

    def forward(self, x):
        return self.model(x)

    def training_step(self, batch, batch_idx):
        features, true_labels = batch
        logits = self(features)
        loss = F.cross_entropy(logits, true_labels)
        # evaluation bookkeeping only: no graph is needed for the accuracy
        with torch.no_grad():
            predicted_labels = torch.argmax(logits, 1)
            self.train_acc.update(predicted_labels, true_labels)
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.learning_rate)


def fit(lightning_model, train_loader, max_epochs=2):
    optimizer = lightning_model.configure_optimizers()
    for epoch in range(max_epochs):
        for batch_idx, batch in enumerate(train_loader):
            loss = lightning_model.training_step(batch, batch_idx)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, round(loss.item(), 4), lightning_model.train_acc.compute())


model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 4))
loader = [(torch.randn(16, 20), torch.randint(0, 4, (16,))) for _ in range(5)]
fit(LightningModel(model, learning_rate=0.05), loader)
