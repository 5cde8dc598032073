"""PPO-style RL fine-tuning of a tiny autoregressive token policy: sampled
sequences are rewarded for containing the target token, a separate value model
provides a baseline, and the clipped ratio objective uses per-token
log-probabilities recomputed for the sampled sequences."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, SEQ, TARGET, CLIP = 12, 6, 7, 0.2


class TokenPolicy(nn.Module):
    def __init__(self, hid=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB + 1, hid)          # last id = BOS
        self.rnn = nn.GRU(hid, hid, batch_first=True)
        self.out = nn.Linear(hid, VOCAB)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


@torch.no_grad()
def sample(policy, n):
    seq = torch.full((n, 1), VOCAB)
    for _ in range(SEQ):
        logits = policy(seq)[:, -1]
        seq = torch.cat([seq, torch.multinomial(F.softmax(logits, -1), 1)], 1)
    return seq


def compute_logprobs(policy, seq):
    """Per-token log-probabilities of the sampled tokens (differentiable)."""
    logits = policy(seq[:, :-1])
    return torch.gather(F.log_softmax(logits, -1), 2, seq[:, 1:, None]).squeeze(2)


def reward_fn(seq):
    return (seq[:, 1:] == TARGET).float().sum(1)


def main():
    policy = TokenPolicy()
    value = nn.Sequential(nn.Embedding(VOCAB + 1, 16), nn.Flatten(), nn.Linear(16 * (SEQ + 1), 1))
    pol_opt = torch.optim.Adam(policy.parameters(), lr=3e-3)
    val_opt = torch.optim.Adam(value.parameters(), lr=3e-3)
    for it in range(5):
        seq = sample(policy, 32)
        rewards = reward_fn(seq)
        for epoch in range(1):                           # single on-policy update
            baseline = value(seq).squeeze(1)
            adv = (rewards - baseline.detach())
            logp = compute_logprobs(policy, seq).sum(1)
            # on-policy: the ratio is exactly 1 in value, but its gradient is grad(logp)
            ratio = torch.exp(logp - logp.detach())
            pol_loss = -torch.min(ratio * adv, ratio.clamp(1 - CLIP, 1 + CLIP) * adv).mean()
            val_loss = F.mse_loss(baseline, rewards)
            loss = pol_loss + 0.5 * val_loss
            pol_opt.zero_grad(); val_opt.zero_grad()
            loss.backward()
            pol_opt.step(); val_opt.step()
        print(f"iter {it} mean reward {rewards.mean().item():.2f}")


if __name__ == "__main__":
    main()
