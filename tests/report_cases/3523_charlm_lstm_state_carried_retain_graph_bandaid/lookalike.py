"""Character-level LSTM language model trained on random chunks of one long
text from a zero state; after every epoch a sample is generated character by
character, carrying the recurrent state through the generation loop."""
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
        for batch_num in range(8):
            i = int(torch.randint(0, streams.size(1) - CHUNK - 1, (1,)))
            x, y = streams[:, i:i + CHUNK], streams[:, i + 1:i + CHUNK + 1]
            h0 = torch.zeros(LAYERS, BATCH, HID)
            c0 = torch.zeros(LAYERS, BATCH, HID)
            optimizer.zero_grad()
            logits, _, _ = model(x, h0, c0)
            loss = loss_fn(logits.reshape(-1, VOCAB), y.reshape(-1))
            loss.backward()
            optimizer.step()
        with torch.no_grad():                     # generation: state carried, no graph recorded
            h0, c0 = torch.zeros(LAYERS, 1, HID), torch.zeros(LAYERS, 1, HID)
            idx, text = torch.tensor([[stoi["t"]]]), "t"
            for _ in range(30):
                logits, h0, c0 = model(idx, h0, c0)
                idx = torch.multinomial(logits[0, -1].softmax(-1), 1)[None]
                text += chars[int(idx)]
        print(f"epoch {epoch} loss {loss.item():.4f} sample {text!r}")


if __name__ == "__main__":
    main()
