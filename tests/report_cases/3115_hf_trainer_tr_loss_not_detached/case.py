"""Fine-tuning a tiny transformer encoder for sentence classification with a minimal
HuggingFace-style Trainer (training_step returns the loss, train() accumulates tr_loss)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyBertForSequenceClassification(nn.Module):
    def __init__(self, vocab=50, dim=32, num_labels=2):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, 4, 64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, labels=None):
        logits = self.classifier(self.encoder(self.embeddings(input_ids))[:, 0])
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return loss, logits


class Trainer:
    def __init__(self, model, train_dataset, learning_rate=5e-4, logging_steps=4):
        self.model = model
        self.train_dataset = train_dataset
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
        self.logging_steps = logging_steps

    def training_step(self, model, inputs):
        model.train()
        loss, _ = model(**inputs)
        loss.backward()
        return loss

    def train(self):
        tr_loss = torch.tensor(0.0)
        logging_loss = 0.0
        for global_step, inputs in enumerate(self.train_dataset, 1):
            tr_loss += self.training_step(self.model, inputs)
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.optimizer.step()
            self.model.zero_grad()
            if global_step % self.logging_steps == 0:
                print(f"step {global_step} loss {(tr_loss.item() - logging_loss) / self.logging_steps:.4f} "
                      f"tr_loss grad_fn={type(tr_loss.grad_fn).__name__}")
                logging_loss = tr_loss.item()
        return tr_loss.item() / global_step


if __name__ == "__main__":
    data = [{"input_ids": torch.randint(0, 50, (8, 12)), "labels": torch.randint(0, 2, (8,))} for _ in range(12)]
    print("average training loss", Trainer(TinyBertForSequenceClassification(), data).train())
