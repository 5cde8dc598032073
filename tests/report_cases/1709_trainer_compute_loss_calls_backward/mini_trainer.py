from dataclasses import dataclass

import torch
from torch.utils.data import DataLoader


@dataclass
class TrainingArguments:
    output_dir: str = "out"
    num_train_epochs: int = 2
    per_device_train_batch_size: int = 8
    learning_rate: float = 5e-4
    weight_decay: float = 0.0
    max_grad_norm: float = 1.0
    logging_steps: int = 5


class Trainer:
    """A stripped-down version of the transformers Trainer training loop."""

    def __init__(self, model, args, train_dataset, data_collator=None):
        self.model = model
        self.args = args
        self.train_dataset = train_dataset
        self.data_collator = data_collator
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate,
                                           weight_decay=args.weight_decay)
        self.global_step = 0

    def get_train_dataloader(self):
        return DataLoader(self.train_dataset, batch_size=self.args.per_device_train_batch_size,
                          shuffle=True, collate_fn=self.data_collator)

    def compute_loss(self, model, inputs):
        outputs = model(**inputs)
        return outputs["loss"]

    def training_step(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, inputs)
        loss.backward()
        return loss.detach()

    def train(self):
        tr_loss = 0.0
        for epoch in range(self.args.num_train_epochs):
            for inputs in self.get_train_dataloader():
                tr_loss += self.training_step(self.model, inputs).item()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.args.max_grad_norm)
                self.optimizer.step()
                self.model.zero_grad()
                self.global_step += 1
                if self.global_step % self.args.logging_steps == 0:
                    print({"step": self.global_step, "loss": round(tr_loss / self.global_step, 4)})
        return tr_loss / max(self.global_step, 1)
