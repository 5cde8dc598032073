"""Learning to learn by gradient descent: a coordinatewise LSTM optimizer (MetaOptimizer)
trained to minimise random quadratics. The meta-optimizer's parameters are trained with Adam."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class LayerNormLSTMCell(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.cell = nn.LSTMCell(input_size, hidden_size)
        self.ln = nn.LayerNorm(hidden_size)

    def forward(self, x, state):
        h, c = self.cell(x, state)
        return self.ln(h), c


class MetaOptimizer(nn.Module):
    def __init__(self, hidden_size=16, num_layers=2):
        super().__init__()
        self.hidden_size = hidden_size
        self.linear1 = nn.Linear(2, hidden_size)
        self.lstms = nn.ModuleList()
        for _ in range(num_layers):
            self.lstms.append(LayerNormLSTMCell(hidden_size, hidden_size))
        self.linear2 = nn.Linear(hidden_size, 1)
        self.linear2.weight.data.mul_(0.1)
        self.linear2.bias.data.fill_(0.0)

    def reset_lstm(self, n_params):
        zeros = torch.zeros(n_params, self.hidden_size)
        self.state = [(zeros, zeros) for _ in self.lstms]

    def forward(self, grads):
        # preprocessing as in Andrychowicz et al.: log-magnitude and sign
        x = torch.stack([grads.abs().clamp(min=1e-8).log() / 10, grads.sign()], dim=1)
        x = torch.tanh(self.linear1(x))
        new_state = []
        for lstm, st in zip(self.lstms, self.state):
            h, c = lstm(x, st)
            new_state.append((h, c))
            x = h
        self.state = new_state
        return self.linear2(x).squeeze(1)


def quadratic_loss(W, y, theta):
    return ((W @ theta - y) ** 2).sum()


meta_opt = MetaOptimizer()
optimizer = torch.optim.Adam(meta_opt.parameters(), lr=1e-3)
lstm_w0 = meta_opt.lstms[0].cell.weight_hh.detach().clone()

for epoch in range(4):
    W, y = torch.randn(5, 5), torch.randn(5)
    theta = torch.zeros(5, requires_grad=True)
    meta_opt.reset_lstm(5)
    meta_loss = 0.0
    for step in range(5):  # unrolled optimisation steps
        f = quadratic_loss(W, y, theta)
        grads, = torch.autograd.grad(f, theta, create_graph=False)
        theta = theta + meta_opt(grads.detach())
        meta_loss = meta_loss + quadratic_loss(W, y, theta)
    optimizer.zero_grad()
    meta_loss.backward()
    optimizer.step()
    print("epoch", epoch, "meta loss", round(meta_loss.item(), 3))

print("LSTM weight change:", (meta_opt.lstms[0].cell.weight_hh - lstm_w0).abs().max().item())
