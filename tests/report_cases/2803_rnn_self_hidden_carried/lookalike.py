import torch
import torch.nn as nn

torch.manual_seed(0)

text = ["hey how are you", "good i am fine", "have a nice day"]
chars = sorted(set("".join(text)))
char2int = {c: i for i, c in enumerate(chars)}
maxlen = len(max(text, key=len))
text = [t.ljust(maxlen) for t in text]
chars = sorted(set("".join(text)))
char2int = {c: i for i, c in enumerate(chars)}
dict_size = len(chars)

input_seq = [[char2int[c] for c in t[:-1]] for t in text]
target_seq = [[char2int[c] for c in t[1:]] for t in text]


def one_hot_encode(sequence, dict_size, seq_len, batch_size):
    features = torch.zeros(batch_size, seq_len, dict_size)
    for i in range(batch_size):
        for u in range(seq_len):
            features[i, u, sequence[i][u]] = 1
    return features


input_seq = one_hot_encode(input_seq, dict_size, maxlen - 1, len(text))
target_seq = torch.tensor(target_seq)


class Model(nn.Module):
    def __init__(self, input_size, output_size, hidden_dim, n_layers):
        super().__init__()
        self.hidden_dim, self.n_layers = hidden_dim, n_layers
        self.rnn = nn.RNN(input_size, hidden_dim, n_layers, batch_first=True)
        self.fc = nn.Linear(hidden_dim, output_size)
        self.last_hidden = None

    def forward(self, x):
        batch_size = x.size(0)
        hidden = self.init_hidden(batch_size)
        out, hidden = self.rnn(x, hidden)
        self.last_hidden = hidden.detach()  # kept only for inspection
        out = out.contiguous().view(-1, self.hidden_dim)
        return self.fc(out), hidden

    def init_hidden(self, batch_size):
        return torch.zeros(self.n_layers, batch_size, self.hidden_dim)


model = Model(input_size=dict_size, output_size=dict_size, hidden_dim=12, n_layers=1)
n_epochs = 40
lr = 0.01
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=lr)

for epoch in range(1, n_epochs + 1):
    optimizer.zero_grad()
    output, hidden = model(input_seq)
    loss = criterion(output, target_seq.view(-1).long())
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print("Epoch: {}/{}.............".format(epoch, n_epochs), end=" ")
        print("Loss: {:.4f}".format(loss.item()))
