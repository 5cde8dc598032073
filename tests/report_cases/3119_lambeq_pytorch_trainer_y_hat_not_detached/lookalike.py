"""Sentence classification with a compositional (DisCoCat-style) tensor model trained through a
lambeq-style PytorchTrainer; training metrics are evaluated on every batch's outputs
and returned as plain numbers (or graph-free comparisons)."""
import torch
import torch.nn as nn
from pytorch_trainer import PytorchTrainer

torch.manual_seed(0)
VOCAB, DIM = 12, 4


class CompositionalModel(nn.Module):
    """Each word is a learnable DIM x DIM map; a sentence applies its words to a start vector."""

    def __init__(self):
        super().__init__()
        self.words = nn.Parameter(torch.eye(DIM).repeat(VOCAB, 1, 1) + 0.1 * torch.randn(VOCAB, DIM, DIM))
        self.start = nn.Parameter(torch.ones(DIM) / DIM ** 0.5)
        self.readout = nn.Linear(DIM, 2)

    def forward(self, sentences):
        states = self.start.expand(sentences.shape[0], DIM)
        for t in range(sentences.shape[1]):
            states = torch.tanh(torch.einsum("bij,bj->bi", self.words[sentences[:, t]], states))
        return torch.softmax(self.readout(states), dim=-1)


def make_batches(n_batches=4, bsz=6, length=3):
    batches = []
    for _ in range(n_batches):
        sentences = torch.randint(0, VOCAB, (bsz, length))
        labels = nn.functional.one_hot((sentences[:, 0] < VOCAB // 2).long(), 2).float()
        batches.append((sentences, labels))
    return batches


eval_metrics = {
    "acc": lambda y_hat, y: torch.sum(torch.eq(torch.round(y_hat), y)) / len(y) / 2,
    "mae": lambda y_hat, y: torch.mean(torch.abs(y_hat - y)).item(),
}
trainer = PytorchTrainer(model=CompositionalModel(), loss_function=nn.BCELoss(), optimizer=torch.optim.AdamW,
                         learning_rate=3e-2, epochs=2, evaluate_functions=eval_metrics, evaluate_on_train=True)
trainer.fit(make_batches())
