import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, DIM = 20, 16


class TinyPaLM(nn.Module):
    def __init__(self, out_dim):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.body = nn.GRU(DIM, DIM, batch_first=True)
        self.head = nn.Linear(DIM, out_dim)

    def forward(self, seq):
        h, _ = self.body(self.emb(seq))
        return self.head(h)


class ActorCritic(nn.Module):
    def __init__(self, palm):
        super().__init__()
        self.actor_palm = palm
        self.critic_palm = copy.deepcopy(palm)
        self.critic_palm.head = nn.Linear(DIM, 1)

    def forward(self, seq):
        return self.actor_palm(seq), self.critic_palm(seq).squeeze(-1)


def clipped_value_loss(values, rewards, old_values, clip):
    value_clipped = old_values + (values - old_values).clamp(-clip, clip)
    return torch.max((value_clipped - rewards) ** 2, (values - rewards) ** 2).mean()


actor_critic = ActorCritic(TinyPaLM(VOCAB))
actor_optim = torch.optim.Adam(actor_critic.actor_palm.parameters(), lr=1e-4)
critic_optim = torch.optim.Adam(actor_critic.critic_palm.parameters(), lr=1e-4)
eps_clip, value_clip, beta_s = 0.2, 0.4, 0.01

for epoch in range(2):
    seq = torch.randint(0, VOCAB, (4, 8))
    with torch.no_grad():
        old_logits, old_values = actor_critic(seq)
        old_log_probs = F.log_softmax(old_logits, -1).gather(-1, seq.unsqueeze(-1)).squeeze(-1)
    rewards = torch.randn(4, 8)
    for _ in range(2):
        action_logits, values = actor_critic(seq)
        action_log_probs = F.log_softmax(action_logits, -1).gather(-1, seq.unsqueeze(-1)).squeeze(-1)
        entropies = -(action_logits.softmax(-1) * action_logits.log_softmax(-1)).sum(-1)
        ratios = (action_log_probs - old_log_probs).exp()
        advantages = rewards - old_values
        surr1 = ratios * advantages
        surr2 = ratios.clamp(1 - eps_clip, 1 + eps_clip) * advantages
        policy_loss = -torch.min(surr1, surr2) - beta_s * entropies

        loss = policy_loss.mean()
        actor_optim.zero_grad()
        loss.backward()
        actor_optim.step()

        value_loss = clipped_value_loss(values, rewards, old_values, value_clip)
        critic_optim.zero_grad()
        value_loss.backward()
        critic_optim.step()
