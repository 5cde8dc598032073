import torch
import torch.nn as nn


class RNNLM(nn.Module):
    def __init__(self, vocab_size, embed_size, hidden_size, num_layers):
        super().__init__()
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


def batchify(ids, batch_size):
    num_batches = ids.size(0) // batch_size
    return ids[: num_batches * batch_size].view(batch_size, -1)


def bptt_chunks(ids, seq_length):
    for i in range(0, ids.size(1) - seq_length, seq_length):
        yield ids[:, i:i + seq_length], ids[:, (i + 1):(i + 1) + seq_length]


embed_size, hidden_size, num_layers = 16, 32, 1
num_epochs, batch_size, seq_length, vocab_size = 2, 4, 8, 30
learning_rate = 0.002

torch.manual_seed(0)
ids = batchify(torch.randint(0, vocab_size, (400,)), batch_size)
model = RNNLM(vocab_size, embed_size, hidden_size, num_layers)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

for epoch in range(num_epochs):
    # set initial hidden and cell states
    states = (torch.zeros(num_layers, batch_size, hidden_size),
              torch.zeros(num_layers, batch_size, hidden_size))
    for step, (inputs, targets) in enumerate(bptt_chunks(ids, seq_length)):
        # starting each batch, we detach the hidden state from how it was previously produced
        states = detach(states)

        outputs, states = model(inputs, states)
        loss = criterion(outputs, targets.reshape(-1))

        model.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()

        if step % 5 == 0:
            print(f"Epoch [{epoch + 1}/{num_epochs}], Step {step}, Loss: {loss.item():.4f}, "
                  f"Perplexity: {torch.exp(loss).item():5.2f}")
