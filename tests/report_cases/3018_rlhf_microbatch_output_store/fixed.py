"""PPO actor update for a tiny causal LM policy (verl-style engine): a mini-batch is split into
micro-batches, each runs forward_step (log-probs + entropy of the response tokens) and the PPO
clipped loss is backwarded; outputs are collected per micro-batch and the optimizer steps once
per mini-batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, HIDDEN = 50, 32


def graph_size(tensors):
    stack, seen = [getattr(t, "grad_fn", None) for t in tensors], set()
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class TinyCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, HIDDEN)
        self.rnn = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.lm_head = nn.Linear(HIDDEN, VOCAB)

    def forward(self, input_ids):
        h, _ = self.rnn(self.embed(input_ids))
        return self.lm_head(h)


def logprobs_from_logits(logits, labels):
    return torch.log_softmax(logits, dim=-1).gather(-1, labels.unsqueeze(-1)).squeeze(-1)


def entropy_from_logits(logits):
    p = torch.softmax(logits, dim=-1)
    return torch.logsumexp(logits, dim=-1) - (p * logits).sum(-1)


def ppo_loss(log_probs, old_log_probs, advantages, mask, clip_ratio=0.2):
    ratio = torch.exp(log_probs - old_log_probs)
    pg = torch.max(-advantages * ratio, -advantages * ratio.clamp(1 - clip_ratio, 1 + clip_ratio))
    return (pg * mask).sum() / mask.sum()


class FSDPEngineWithLMHead:
    def __init__(self, model, lr=1e-3, entropy_coeff=0.0):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.entropy_coeff = entropy_coeff

    def forward_step(self, micro_batch):
        input_ids = micro_batch["input_ids"]
        logits = self.model(input_ids[:, :-1])
        model_output = {"log_probs": logprobs_from_logits(logits, input_ids[:, 1:]),
                        "entropy": entropy_from_logits(logits)}
        loss = ppo_loss(model_output["log_probs"], micro_batch["old_log_probs"],
                        micro_batch["advantages"], micro_batch["response_mask"])
        if self.entropy_coeff != 0:
            loss = loss - self.entropy_coeff * (model_output["entropy"] * micro_batch["response_mask"]).mean()
        model_output = {k: v.detach() for k, v in model_output.items()}  # do not pin the graph
        output = {"model_output": model_output, "loss": loss.detach().item(),
                  "metrics": {"pg_clipfrac": 0.0}}
        return loss, output

    def forward_backward_batch(self, micro_batches):
        output_lst = []
        for micro_batch in micro_batches:
            loss, output = self.forward_step(micro_batch)
            (loss / len(micro_batches)).backward()
            output_lst.append(output)
            print(f"  micro-batch {len(output_lst)}: graph nodes held by output_lst = "
                  f"{graph_size([t for o in output_lst for t in o['model_output'].values()])}")
        return output_lst

    def update_actor(self, mini_batch, micro_batch_size=4):
        self.optimizer.zero_grad()
        micro_batches = [{k: v[i:i + micro_batch_size] for k, v in mini_batch.items()}
                         for i in range(0, mini_batch["input_ids"].shape[0], micro_batch_size)]
        output_lst = self.forward_backward_batch(micro_batches)
        self.optimizer.step()
        return {"actor/pg_loss": sum(o["loss"] for o in output_lst) / len(output_lst)}


def make_rollout(batch=16, seq=12):
    input_ids = torch.randint(0, VOCAB, (batch, seq))
    return {"input_ids": input_ids, "old_log_probs": -torch.rand(batch, seq - 1) * 3,
            "advantages": torch.randn(batch, 1).expand(batch, seq - 1).contiguous(),
            "response_mask": (torch.arange(seq - 1) >= 4).float().expand(batch, seq - 1).contiguous()}


def main():
    engine = FSDPEngineWithLMHead(TinyCausalLM())
    for step in range(3):
        print(f"step {step}")
        metrics = engine.update_actor(make_rollout())
        print(f"step {step}: {metrics}")


if __name__ == "__main__":
    main()
