import torch

from model import SurnameClassifier
from trainer import BasicTrainer

torch.manual_seed(0)
config = {"lr": 1e-3, "epochs": 2, "new_labels": 3}


def make_batches(n, num_labels):
    return [(torch.randint(0, 30, (8, 6)), torch.randint(0, num_labels, (8,))) for _ in range(n)]


pretrained_state = SurnameClassifier().state_dict()  # stands in for torch.load(checkpoint)
model = SurnameClassifier()
model.load_state_dict(pretrained_state)
trainer = BasicTrainer(model, config)

# transfer to the new label set: only the new head should learn
trainer.finetune_last_layer(config["new_labels"])
for epoch in range(config["epochs"]):
    trainer.train_epoch(make_batches(4, config["new_labels"]))
