import torch
import torch.nn as nn

from models import NMTModel

torch.manual_seed(0)
opt = {"trunc_size": 0, "lr": 1e-3, "epochs": 2}


class Trainer:
    def __init__(self, model, optim, trunc_size):
        self.model, self.optim, self.trunc_size = model, optim, trunc_size
        self.criterion = nn.CrossEntropyLoss()

    def train_batch(self, src, tgt, img_feats):
        target_size = tgt.size(0)
        trunc_size = self.trunc_size if self.trunc_size else target_size
        dec_state = None
        self.model.zero_grad()
        for j in range(0, target_size - 1, trunc_size):
            tgt_in = tgt[j: j + trunc_size]
            tgt_out = tgt[j + 1: j + 1 + trunc_size]
            tgt_in = tgt_in[: tgt_out.size(0)]
            outputs, dec_state = self.model(src, tgt_in, img_feats, dec_state)
            loss = self.criterion(outputs.flatten(0, 1), tgt_out.flatten())
            loss.backward()
        self.optim.step()


model = NMTModel()
trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=opt["lr"]), opt["trunc_size"])
for epoch in range(opt["epochs"]):
    for _ in range(3):
        src = torch.randint(0, 20, (7, 4))
        tgt = torch.randint(0, 20, (11, 4))
        img_feats = torch.randn(4, 12)
        trainer.train_batch(src, tgt, img_feats)
