"""Multimodal VQA training loop (MMF-style): image-region features + question tokens, a fused
classifier over answers, two losses reported per step and averaged by a training meter."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from meter import Meter
from reporting_fixed import update_meter, graph_size

torch.manual_seed(0)
N_ANSWERS = 10


class VisualBert(nn.Module):
    def __init__(self, vocab=30, dim=16):
        super().__init__()
        self.txt = nn.Embedding(vocab, dim)
        self.img = nn.Linear(12, dim)
        self.fuse = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 2, 32, dropout=0.0, batch_first=True), 1)
        self.classifier = nn.Linear(dim, N_ANSWERS)

    def forward(self, sample):
        x = torch.cat([self.txt(sample["input_ids"]), self.img(sample["image_feature"])], dim=1)
        scores = self.classifier(self.fuse(x)[:, 0])
        losses = {
            "train/vqa/logit_bce": F.binary_cross_entropy_with_logits(scores, sample["targets"]),
            "train/vqa/aux_ce": 0.1 * F.cross_entropy(scores, sample["targets"].argmax(1)),
        }
        return {"scores": scores, "losses": losses}


class MMFTrainer:
    def __init__(self):
        self.model = VisualBert()
        self.optimizer = torch.optim.Adamax(self.model.parameters(), lr=1e-3)
        self.meter = Meter()

    def run_training_batch(self, sample):
        report = self.model(sample)
        report["batch_size"] = sample["input_ids"].shape[0]
        loss = sum(l.mean() for l in report["losses"].values())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        update_meter(self.meter, report)

    def train(self, num_updates=6):
        for update in range(num_updates):
            sample = {"input_ids": torch.randint(0, 30, (4, 5)), "image_feature": torch.randn(4, 3, 12),
                      "targets": F.one_hot(torch.randint(0, N_ANSWERS, (4,)), N_ANSWERS).float()}
            self.run_training_batch(sample)
            print(f"update {update}: {self.meter} | graph nodes held by the meter: {graph_size(self.meter)}")


if __name__ == "__main__":
    MMFTrainer().train()
