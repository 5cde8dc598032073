"""Sequence regression with a two-layer Elman RNN whose forward pass is written out by hand, written into a
preallocated output buffer."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class ScratchRNN(nn.Module):
    def __init__(self, input_size=10, hidden_size=20, num_layers=2):
        super().__init__()
        self.rnn = nn.RNN(input_size, hidden_size, num_layers)  # only used as a parameter container
        self.head = nn.Linear(hidden_size, 1)

    def forward(self, x, hx=None):
        params = dict(self.rnn.named_parameters())
        seq_len, batch_size, _ = x.size()
        if hx is None:
            hx = torch.zeros(self.rnn.num_layers, batch_size, self.rnn.hidden_size)
        h_t_minus_1 = list(hx)
        output = x.new_zeros(seq_len, batch_size, self.rnn.hidden_size)  # preallocated output buffer
        for t in range(seq_len):
            h_t = []
            for layer in range(self.rnn.num_layers):
                input_t = x[t] if layer == 0 else h_t[layer - 1]
                h_t.append(torch.tanh(
                    input_t @ params[f"weight_ih_l{layer}"].T
                    + h_t_minus_1[layer] @ params[f"weight_hh_l{layer}"].T
                    + params[f"bias_hh_l{layer}"]
                    + params[f"bias_ih_l{layer}"]
                ))
            output[t] = h_t[-1]  # in-place write into a buffer slot nobody has read yet
            h_t_minus_1 = h_t
        h_t = torch.stack(h_t)
        return self.head(output), h_t


def train(steps=3):
    model = ScratchRNN()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(steps):
        x = torch.randn(5, 3, 10)
        target = x.sum(-1, keepdim=True).cumsum(0) * 0.1
        pred, _ = model(x)
        loss = nn.functional.mse_loss(pred, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
