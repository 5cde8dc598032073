import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    """Stand-in for a BERT encoder that returns all hidden states."""
    def __init__(self, n_layers, dim=16):
        super().__init__()
        self.embed = nn.Linear(10, dim)
        self.layer = nn.ModuleList([nn.Sequential(nn.Linear(dim, dim), nn.GELU()) for _ in range(n_layers)])

    def forward(self, x):
        h = self.embed(x)
        hidden_states = [h]
        for blk in self.layer:
            h = h + blk(h)
            hidden_states.append(h)
        return h.mean(1), hidden_states


t_model = Encoder(n_layers=6).eval()
s_model = Encoder(n_layers=3)
optimizer = torch.optim.AdamW(s_model.parameters(), lr=1e-3)
kl = torch.nn.KLDivLoss(reduction="batchmean")
encoder_layers = [1, 3, 5]  # teacher layer matched by each student layer

for step in range(3):
    inputs = torch.randn(4, 7, 10)
    with torch.no_grad():
        t_result = t_model(inputs)
    s_outputs = s_model(inputs)
    batch, row, col = s_outputs[1][1].size()
    optimizer.zero_grad()
    total = 0.0
    for i, k in enumerate(encoder_layers):
        output = kl(F.log_softmax(s_outputs[1][i + 1], dim=2).view(batch * row, col),
                    F.softmax(t_result[1][k + 1], dim=2).view(batch * row, col))
        total = total + output
    total.backward()  # one backward through the shared student graph
    optimizer.step()
    print(step, output.item())
