"""Finetune VisualBERT on a VQA-style classification task with an MMF-like trainer: the
optimizer is built from the model's get_optimizer_parameters()."""
import torch
import torch.nn.functional as F

from model_pooler_in_head import VisualBERTForClassification

config = {"num_labels": 8, "finetune_lr_multiplier": 0.1,
          "optimizer": {"type": "adam_w", "lr": 5e-4, "weight_decay": 0.01}, "max_updates": 8}


class Trainer:
    def __init__(self, config):
        torch.manual_seed(0)
        self.config = config
        self.model = VisualBERTForClassification(config)
        parameters = self.model.get_optimizer_parameters(config)
        self.optimizer = torch.optim.AdamW(parameters, lr=config["optimizer"]["lr"],
                                           weight_decay=config["optimizer"]["weight_decay"])

    def get_batch(self, bs=8):
        return {"input_ids": torch.randint(0, 40, (bs, 6)), "image_feature": torch.randn(bs, 5, 12),
                "targets": torch.randint(0, self.config["num_labels"], (bs,))}

    def train(self):
        self.model.train()
        pooler_before = self.model.pooler.dense.weight.detach().clone()
        for update in range(self.config["max_updates"]):
            batch = self.get_batch()
            scores = self.model(batch)["scores"]
            loss = F.cross_entropy(scores, batch["targets"])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            if update % 4 == 0:
                print(f"update {update}: loss {loss.item():.4f}")
        change = (self.model.pooler.dense.weight - pooler_before).abs().max().item()
        print(f"pooler weight change after {self.config['max_updates']} updates: {change}")


if __name__ == "__main__":
    Trainer(config).train()
