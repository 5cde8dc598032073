import torch
from model import Summarizer
from trainer import Trainer

torch.manual_seed(0)


def batches(n=4, bsz=4, src_len=10, tgt_len=6):
    for _ in range(n):
        src = torch.randint(2, 40, (bsz, src_len))
        tgt = torch.cat([torch.zeros(bsz, 1, dtype=torch.long), src[:, :tgt_len - 1]], dim=1)
        yield src, tgt


model = Summarizer()
trainer = Trainer(model)
before = {n: p.detach().clone() for n, p in model.named_parameters() if n.startswith("refine")}
for epoch in range(2):
    for step, batch in enumerate(batches()):
        d, r = trainer.train_one_batch(batch)
    print("epoch", epoch, "draft", round(d, 4), "refine", round(r, 4))
change = sum((p - before[n]).abs().sum().item() for n, p in model.named_parameters() if n in before)
print("refine decoder weight change:", change)
