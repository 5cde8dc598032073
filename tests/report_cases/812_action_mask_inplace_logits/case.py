"""Policy gradient on a contextual bandit with invalid-action masking and a hand-written output layer."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
OBS, N_ACT = 5, 6


class MaskedPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh())
        self.weight = nn.Parameter(torch.randn(32, N_ACT) * 0.1)
        self.bias = nn.Parameter(torch.zeros(N_ACT))

    def forward(self, obs, action_mask):
        h = self.body(obs)
        logits = h @ self.weight
        logits.add_(self.bias)
        logits[~action_mask] = float("-inf")
        return F.log_softmax(logits, dim=-1)


policy = MaskedPolicy()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
returns_log = []
for update in range(20):
    obs = torch.randn(16, OBS)
    mask = torch.rand(16, N_ACT) > 0.3
    mask[:, 0] = True                         # at least one legal action
    log_probs = policy(obs, mask)
    actions = torch.multinomial(log_probs.exp(), 1).squeeze(1)
    reward = (actions == obs[:, :3].argmax(1)).float()
    advantage = reward - reward.mean()
    chosen = log_probs.gather(1, actions.unsqueeze(1)).squeeze(1)
    loss = -(chosen * advantage).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    returns_log.append(reward.mean().item())
print(sum(returns_log[-5:]) / 5)
