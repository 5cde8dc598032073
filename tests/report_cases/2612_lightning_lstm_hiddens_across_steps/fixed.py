import torch
import torch.nn as nn

from lite import LightningModule, Trainer

torch.manual_seed(0)

hparams = {"batch_size": 4, "vocab": 30, "emb": 8, "hidden": 16, "n_layers": 1, "lr": 1e-3}


class PostLSTM(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.hp = hp
        self.emb = nn.Embedding(hp["vocab"], hp["emb"])
        self.lstm = nn.LSTM(hp["emb"], hp["hidden"], hp["n_layers"], batch_first=True)
        self.out = nn.Linear(hp["hidden"], 2)

    def init_hidden(self, batch_size):
        z = torch.zeros(self.hp["n_layers"], batch_size, self.hp["hidden"])
        return (z, z.clone())

    def forward(self, posts, hiddens):
        seq, hiddens = self.lstm(self.emb(posts), hiddens)
        return self.out(seq[:, -1]), hiddens


class UserTimelineModel(LightningModule):
    def __init__(self, hp):
        super().__init__()
        self.hparams_ = hp
        self.model = PostLSTM(hp)
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, posts, hiddens):
        return self.model(posts, hiddens)

    def training_step(self, batch, batch_nb, hiddens):
        posts, targets = batch
        if batch_nb == 0:  # init only in new epochs
            hiddens = self.model.init_hidden(self.hparams_["batch_size"])
        out, hiddens = self.forward(posts, hiddens)
        loss = self.criterion(out, targets)
        # carry the state's value to the next step but not its history (truncated BPTT)
        return {"loss": loss, "hiddens": tuple(h.detach() for h in hiddens)}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams_["lr"])


loader = [(torch.randint(0, hparams["vocab"], (hparams["batch_size"], 6)),
           torch.randint(0, 2, (hparams["batch_size"],))) for _ in range(5)]
Trainer(max_epochs=2).fit(UserTimelineModel(hparams), loader)
