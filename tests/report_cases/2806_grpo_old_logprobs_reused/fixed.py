import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, HID = 20, 32


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, HID)
        self.rnn = nn.GRU(HID, HID, batch_first=True)
        self.lm_head = nn.Linear(HID, VOCAB)

    def hidden_states(self, ids):
        out, _ = self.rnn(self.emb(ids))
        return out

    def forward(self, ids):
        return self.lm_head(self.hidden_states(ids))


def token_logprobs(model, ids):
    logits = model(ids[:, :-1])
    return torch.gather(F.log_softmax(logits, -1), 2, ids[:, 1:].unsqueeze(-1)).squeeze(-1)


def reward_fn(ids):
    return (ids[:, 1:] % 2 == 0).float().mean(1)


class GRPOTrainer:
    def __init__(self, policy, beta=0.04, eps=0.2, num_iterations=3):
        self.policy = policy
        self.ref = copy.deepcopy(policy).eval()
        for p in self.ref.parameters():
            p.requires_grad_(False)
        self.opt = torch.optim.AdamW(policy.parameters(), lr=1e-3)
        self.beta, self.eps, self.num_iterations = beta, eps, num_iterations

    def step(self, ids, group_size=4):
        rewards = reward_fn(ids).view(-1, group_size)
        adv = ((rewards - rewards.mean(1, keepdim=True)) / (rewards.std(1, keepdim=True) + 1e-4)).view(-1, 1)
        with torch.no_grad():
            old_logps = token_logprobs(self.policy, ids)  # policy at sampling time
        ref_logps = token_logprobs(self.ref, ids)
        for _ in range(self.num_iterations):
            logps = token_logprobs(self.policy, ids)
            ratio = torch.exp(logps - old_logps)
            clipped = torch.clamp(ratio, 1 - self.eps, 1 + self.eps)
            pg = -torch.min(ratio * adv, clipped * adv)
            kl = torch.exp(ref_logps - logps) - (ref_logps - logps) - 1
            loss = (pg + self.beta * kl).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        return loss.item()


trainer = GRPOTrainer(TinyLM())
for it in range(3):
    prompts = torch.randint(0, VOCAB, (8, 10))
    print(it, round(trainer.step(prompts), 4))
