"""LSTM language model trained with truncated backpropagation through time on one long
token stream: the LSTM states are carried from chunk to chunk and cut with a detach()
helper at the start of each chunk.
"""
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_

torch.manual_seed(0)

embed_size, hidden_size, num_layers = 16, 32, 1
batch_size, seq_length, num_epochs = 4, 6, 2
vocab_size = 30
learning_rate = 0.002


class RNNLM(nn.Module):
    def __init__(self, vocab_size, embed_size, hidden_size, num_layers):
        super(RNNLM, self).__init__()
        self.embed = nn.Embedding(vocab_size, embed_size)
        self.lstm = nn.LSTM(embed_size, hidden_size, num_layers, batch_first=True)
        self.linear = nn.Linear(hidden_size, vocab_size)

    def forward(self, x, h):
        x = self.embed(x)
        out, (h, c) = self.lstm(x, h)
        out = out.reshape(out.size(0) * out.size(1), out.size(2))
        return self.linear(out), (h, c)


def detach(states):
    return [state.detach() for state in states]


ids = torch.randint(0, vocab_size, (batch_size, 40))
num_batches = ids.size(1) // seq_length
model = RNNLM(vocab_size, embed_size, hidden_size, num_layers)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

for epoch in range(num_epochs):
    states = (torch.zeros(num_layers, batch_size, hidden_size),
              torch.zeros(num_layers, batch_size, hidden_size))
    for i in range(0, ids.size(1) - seq_length, seq_length):
        inputs = ids[:, i:i + seq_length]
        targets = ids[:, (i + 1):(i + 1) + seq_length]
        states = detach(states)
        outputs, states = model(inputs, states)
        loss = criterion(outputs, targets.reshape(-1))
        model.zero_grad()
        loss.backward()
        clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        step = (i + 1) // seq_length
        if step % 2 == 0:
            print(f"Epoch [{epoch + 1}/{num_epochs}], Step[{step}/{num_batches}], Loss: {loss.item():.4f}")
