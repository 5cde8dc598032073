# GRPO-style policy update with the exp(logp - logp.detach()) trick, plus a
# Rollout container whose .detach() is a plain Python method (not a tensor).
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Rollout:
    tokens: torch.Tensor
    rewards: list

    def detach(self):
        """Freeze a rollout for the replay log: copies data, drops autograd state."""
        return Rollout(self.tokens.detach().clone(), list(self.rewards))


class TinyPolicy(nn.Module):
    def __init__(self, vocab=10, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, tokens):
        return self.head(torch.tanh(self.emb(tokens)))


def per_token_logps(policy, tokens):
    logits = policy(tokens[:, :-1])
    return torch.gather(F.log_softmax(logits, -1), 2, tokens[:, 1:].unsqueeze(-1)).squeeze(-1)


torch.manual_seed(0)
policy = TinyPolicy()
optimizer = torch.optim.AdamW(policy.parameters(), lr=1e-3)
replay_log = []
for it in range(4):
    tokens = torch.randint(0, 10, (6, 5))
    rollout = Rollout(tokens, [float(t.sum() % 3) for t in tokens])
    replay_log.append(rollout.detach())
    rewards = torch.tensor(rollout.rewards)
    advantages = (rewards - rewards.mean()) / (rewards.std() + 1e-4)
    logp = per_token_logps(policy, rollout.tokens)
    # value is 1 in the forward pass, but its gradient is d logp
    per_token_loss = torch.exp(logp - logp.detach()) * advantages.unsqueeze(1)
    loss = -per_token_loss.mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(it, loss.item(), len(replay_log))
