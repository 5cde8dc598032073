"""Character-level LSTM language model trained on consecutive chunks of one long
text; the recurrent state is carried from chunk to chunk so the model can use
context beyond the chunk length (stateful training)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
TEXT = ("the quick brown fox jumps over the lazy dog and keeps on running "
        "through the forest while the dog keeps sleeping in the sun. ") * 6
chars = sorted(set(TEXT))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in TEXT])
VOCAB, EMB, HID, LAYERS, BATCH, CHUNK = len(chars), 16, 64, 1, 4, 20


class CharLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, EMB)
        self.lstm = nn.LSTM(EMB, HID, LAYERS, batch_first=True)
        self.out = nn.Linear(HID, VOCAB)

    def forward(self, x, h0, c0):
        y, (h, c) = self.lstm(self.emb(x), (h0, c0))
        return self.out(y), h, c


def batchify(seq):
    n = seq.numel() // BATCH
    return seq[:n * BATCH].view(BATCH, n)


def main():
    model = CharLSTM()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = nn.CrossEntropyLoss()
    streams = batchify(data)
    for epoch in range(2):
        h0 = torch.zeros(LAYERS, BATCH, HID)
        c0 = torch.zeros(LAYERS, BATCH, HID)
        for batch_num, i in enumerate(range(0, streams.size(1) - CHUNK - 1, CHUNK)):
            x, y = streams[:, i:i + CHUNK], streams[:, i + 1:i + CHUNK + 1]
            h0, c0 = h0.detach(), c0.detach()    # truncated BPTT: keep the values, drop the history
            optimizer.zero_grad()
            logits, h0, c0 = model(x, h0, c0)
            loss = loss_fn(logits.reshape(-1, VOCAB), y.reshape(-1))
            loss.backward()
            optimizer.step()
            if batch_num % 5 == 0:
                print(f"epoch {epoch} batch {batch_num} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
