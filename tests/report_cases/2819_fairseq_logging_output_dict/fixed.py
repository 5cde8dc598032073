import torch
import torch.nn as nn
from criterion_fixed import MaskedLmLoss
from trainer import Trainer

torch.manual_seed(0)
VOCAB, MASK = 30, 1


class TinyRoberta(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, dim, padding_idx=0)
        layer = nn.TransformerEncoderLayer(dim, 2, 64, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 1)
        self.lm_head = nn.Linear(dim, VOCAB)

    def forward(self, src_tokens):
        return self.lm_head(self.encoder(self.embed(src_tokens)))


def make_sample(bsz=4, seqlen=12):
    tokens = torch.randint(2, VOCAB, (bsz, seqlen))
    mask = torch.rand(bsz, seqlen) < 0.15
    mask[:, 0] = True
    src = tokens.masked_fill(mask, MASK)
    target = tokens.masked_fill(~mask, 0)
    return {"net_input": {"src_tokens": src}, "target": target, "ntokens": int(mask.sum()), "nsentences": bsz}


model = TinyRoberta()
trainer = Trainer(model, MaskedLmLoss(), torch.optim.Adam(model.parameters(), lr=5e-4), log_interval=100)
for update in range(8):
    trainer.train_step(make_sample())
    print("update", update, "graph nodes kept alive by logging outputs:", trainer.held_graph_nodes())
trainer.flush_logs()
