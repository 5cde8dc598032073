import torch
import torch.nn.functional as F
from ntm import NTM

torch.manual_seed(0)

# Carried memory across batches, but cut from the previous graph
# (truncated BPTT) before every new batch.


def copy_task_batch(batch_size=4, seq_len=5, width=5):
    seq = (torch.rand(seq_len, batch_size, width) > 0.5).float()
    return seq, seq.clone()


model = NTM()
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3, momentum=0.9)
model.init_sequence(batch_size=4)
for batch_num in range(6):
    model.memory.memory = model.memory.memory.detach()
    model.prev_read = model.prev_read.detach()
    inp, target = copy_task_batch()
    optimizer.zero_grad()
    y = torch.stack([model(inp[t]) for t in range(inp.size(0))])
    loss = F.binary_cross_entropy(y, target)
    loss.backward()
    optimizer.step()
    print(batch_num, round(loss.item(), 4))
