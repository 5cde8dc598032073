import torch
import torch.nn as nn

from loss import NMTLossCompute, shards
from model import NMTModelWithClassifier

torch.manual_seed(0)

OPT = {"src_vocab": 20, "tgt_vocab": 20, "n_classes": 3, "batch_size": 4,
       "src_len": 7, "tgt_len": 6, "shard_size": 2, "lr": 1e-3, "train_steps": 5}


class JointLossCompute(NMTLossCompute):
    """NMT loss plus the sentence-classification loss of the head placed after the encoder."""

    def __init__(self, generator):
        super().__init__(generator)
        self.class_criterion = nn.CrossEntropyLoss()

    def __call__(self, batch_tgt, output, stargets_logits, stargets_refs, normalization, shard_size=2):
        total = 0.0
        shard_state = {"output": output, "target": batch_tgt[1:]}
        for shard in shards(shard_state, shard_size):
            loss = self._compute_loss(**shard)
            loss.div(float(normalization)).backward()
            total += loss.item()
            class_loss = self.class_criterion(stargets_logits, stargets_refs)
            class_loss.backward()
        return total


class Trainer:
    def __init__(self, model, train_loss, optim):
        self.model, self.train_loss, self.optim = model, train_loss, optim

    def _gradient_accumulation(self, batch):
        src, tgt, stargets = batch
        self.optim.zero_grad()
        outputs, stargets_logits = self.model(src, tgt)
        normalization = (tgt[1:] != 0).sum()
        loss = self.train_loss(tgt, outputs, stargets_logits, stargets, normalization,
                               shard_size=OPT["shard_size"])
        self.optim.step()
        return loss

    def train(self, batches):
        for step, batch in enumerate(batches):
            print("step", step, "nll", self._gradient_accumulation(batch))


def make_batch():
    src = torch.randint(1, OPT["src_vocab"], (OPT["src_len"], OPT["batch_size"]))
    tgt = torch.randint(1, OPT["tgt_vocab"], (OPT["tgt_len"], OPT["batch_size"]))
    stargets = torch.randint(0, OPT["n_classes"], (OPT["batch_size"],))
    return src, tgt, stargets


model = NMTModelWithClassifier(OPT["src_vocab"], OPT["tgt_vocab"], OPT["n_classes"])
train_loss = JointLossCompute(model.generator)
optim = torch.optim.Adam(model.parameters(), lr=OPT["lr"])
Trainer(model, train_loss, optim).train([make_batch() for _ in range(OPT["train_steps"])])
