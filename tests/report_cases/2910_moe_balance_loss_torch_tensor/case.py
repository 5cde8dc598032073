"""Mixture-of-experts transformer FFN with hard top-1 (hash-free, argmax) routing. The router
receives its learning signal from the load-balancing loss; the balance losses of all MoE
layers are gathered after the forward pass (as in fastmoe's megatron balance helper)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
D_MODEL, N_EXPERTS, VOCAB = 16, 4, 30


class Top1MoE(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(D_MODEL, N_EXPERTS)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(D_MODEL, 32), nn.GELU(), nn.Linear(32, D_MODEL)) for _ in range(N_EXPERTS))
        self.balance_loss = None

    def forward(self, x):
        tokens = x.reshape(-1, D_MODEL)
        probs = F.softmax(self.gate(tokens), dim=-1)
        expert_idx = probs.argmax(dim=-1)
        out = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            sel = expert_idx == e
            if sel.any():
                out[sel] = expert(tokens[sel])
        # switch-style balance loss: fraction of tokens * mean router probability per expert
        frac = F.one_hot(expert_idx, N_EXPERTS).float().mean(0)
        self.balance_loss = N_EXPERTS * (frac * probs.mean(0)).sum()
        return out.reshape_as(x)


class MoELM(nn.Module):
    def __init__(self, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D_MODEL)
        self.attn = nn.ModuleList(nn.MultiheadAttention(D_MODEL, 2, batch_first=True) for _ in range(n_layers))
        self.moe = nn.ModuleList(Top1MoE() for _ in range(n_layers))
        self.norm = nn.LayerNorm(D_MODEL)
        self.head = nn.Linear(D_MODEL, VOCAB)

    def forward(self, tokens):
        x = self.embed(tokens)
        for attn, moe in zip(self.attn, self.moe):
            x = x + attn(x, x, x, need_weights=False)[0]
            x = x + moe(x)
        return self.head(self.norm(x))


def get_balance_loss(model):
    loss_list = [m.balance_loss for m in model.modules() if isinstance(m, Top1MoE)]
    return torch.tensor(loss_list).sum()


model = MoELM()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
gate_w0 = model.moe[0].gate.weight.detach().clone()
data = torch.randint(0, VOCAB, (8, 9))

for step in range(6):
    logits = model(data[:, :-1])
    lm_loss = F.cross_entropy(logits.reshape(-1, VOCAB), data[:, 1:].reshape(-1))
    bal_loss = get_balance_loss(model)
    loss = lm_loss + 0.1 * bal_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} lm {lm_loss.item():.3f} balance {bal_loss.item():.3f}")

print("router weight change:", (model.moe[0].gate.weight - gate_w0).abs().max().item())
