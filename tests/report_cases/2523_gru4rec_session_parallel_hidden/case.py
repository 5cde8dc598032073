import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.RandomState(0)

N_ITEMS, EMB, HIDDEN, BATCH = 40, 16, 32, 8


class GRU4Rec(nn.Module):
    def __init__(self):
        super().__init__()
        self.item_embedding = nn.Embedding(N_ITEMS, EMB)
        self.gru = nn.GRU(EMB, HIDDEN, batch_first=True)
        self.out = nn.Linear(HIDDEN, N_ITEMS)

    def forward(self, item, hidden):
        emb = self.item_embedding(item).unsqueeze(1)
        output, hidden = self.gru(emb, hidden)
        return self.out(output.squeeze(1)), hidden


def session_parallel_batches(sessions, batch_size):
    """Yield (input items, target items, mask of sessions that just started)."""
    iters = list(range(batch_size))
    next_session = batch_size
    pos = [0] * batch_size
    while True:
        inp, tgt, new = [], [], []
        for b in range(batch_size):
            s = sessions[iters[b]]
            new.append(pos[b] == 0)
            inp.append(s[pos[b]])
            tgt.append(s[pos[b] + 1])
            pos[b] += 1
            if pos[b] + 1 >= len(s):
                if next_session >= len(sessions):
                    return
                iters[b], pos[b] = next_session, 0
                next_session += 1
        yield torch.tensor(inp), torch.tensor(tgt), torch.tensor(new)


sessions = [list(rng.randint(0, N_ITEMS, size=rng.randint(3, 7))) for _ in range(30)]
model = GRU4Rec()
optimizer = torch.optim.Adagrad(model.parameters(), lr=0.05)

hidden = torch.zeros(1, BATCH, HIDDEN)
for step, (inp, tgt, new) in enumerate(session_parallel_batches(sessions, BATCH)):
    # sessions that just started get a fresh state, the others continue
    keep = (~new).float().view(1, -1, 1)
    hidden = hidden * keep
    logits, hidden = model(inp, hidden)
    loss = F.cross_entropy(logits, tgt)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 5 == 0:
        recall = (logits.topk(5, dim=1).indices == tgt.unsqueeze(1)).any(1).float().mean()
        print('step %d  loss %.4f  recall@5 %.3f' % (step, loss.item(), recall.item()))
    if step >= 15:
        break
