import torch
import torch.nn.functional as F
from ntm import NTM

torch.manual_seed(0)


def copy_task_batch(batch_size=4, seq_len=5, width=5):
    seq = (torch.rand(seq_len, batch_size, width) > 0.5).float()
    return seq, seq.clone()


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.RMSprop(model.parameters(), lr=lr, momentum=0.9)
        self.history = []

    def train_batch(self, inp, target):
        self.optimizer.zero_grad()
        outs = []
        for t in range(inp.size(0)):
            outs.append(self.model(inp[t]))
        y = torch.stack(outs)
        loss = F.binary_cross_entropy(y, target)
        loss.backward()
        self.optimizer.step()
        self.history.append(loss.item())
        return loss.item()


model = NTM()
trainer = Trainer(model)
model.init_sequence(batch_size=4)  # memory initialised once, before the loop
for batch_num in range(6):
    inp, target = copy_task_batch()
    loss = trainer.train_batch(inp, target)
    print(batch_num, round(loss, 4))
