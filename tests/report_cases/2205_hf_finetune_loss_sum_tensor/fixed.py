import math
import time
from collections import namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

CausalLMOutput = namedtuple("CausalLMOutput", ["loss", "logits"])


class TinyCausalLM(nn.Module):
    """Stand-in for AutoModelForCausalLM: embeddings + causal transformer + LM head."""

    def __init__(self, vocab_size=128, d_model=64, n_heads=4, n_layers=2, max_len=64):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, d_model)
        self.embed_positions = nn.Embedding(max_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, 4 * d_model, dropout=0.1, batch_first=True)
        self.layers = nn.TransformerEncoder(layer, n_layers)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, input_ids, attention_mask=None, labels=None):
        T = input_ids.size(1)
        pos = torch.arange(T, device=input_ids.device)
        h = self.embed_tokens(input_ids) + self.embed_positions(pos)[None]
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        pad = None if attention_mask is None else attention_mask == 0
        h = self.layers(h, mask=causal, src_key_padding_mask=pad)
        logits = self.lm_head(h)
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1),
                                   ignore_index=-100)
        return CausalLMOutput(loss=loss, logits=logits)


def collate_fn(token_lists, block_size=32):
    input_ids = torch.zeros(len(token_lists), block_size, dtype=torch.long)
    attention_mask = torch.zeros_like(input_ids)
    for i, toks in enumerate(token_lists):
        toks = toks[:block_size]
        input_ids[i, :len(toks)] = torch.tensor(toks)
        attention_mask[i, :len(toks)] = 1
    labels = input_ids.masked_fill(attention_mask == 0, -100)
    return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}


def make_dataloader(n_batches, batch_size, vocab_size=128):
    batches = []
    for _ in range(n_batches):
        docs = []
        for _ in range(batch_size):
            n = int(torch.randint(12, 32, (1,)))
            start = int(torch.randint(0, vocab_size, (1,)))
            docs.append([(start + 3 * k) % vocab_size for k in range(n)])  # learnable pattern
        batches.append(collate_fn(docs))
    return batches


def get_linear_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps):
    def lr_lambda(step):
        if step < num_warmup_steps:
            return float(step) / float(max(1, num_warmup_steps))
        return max(0.0, float(num_training_steps - step) / float(max(1, num_training_steps - num_warmup_steps)))
    return torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)


def evaluate(model, eval_dataloader):
    model.eval()
    losses = []
    with torch.no_grad():
        for batch in eval_dataloader:
            outputs = model(**batch)
            losses.append(outputs.loss.item())
    eval_loss = sum(losses) / len(losses)
    return math.exp(eval_loss), eval_loss


def training_function(kwargs):
    config = kwargs["config"]
    num_epochs = int(config["num_epochs"])
    lr = float(config["lr"])

    train_dataloader = make_dataloader(8, config["batch_size"])
    eval_dataloader = make_dataloader(2, config["batch_size"])
    model = TinyCausalLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    num_steps = num_epochs * len(train_dataloader)
    lr_scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=2, num_training_steps=num_steps)

    for epoch in range(num_epochs):
        fwd_time_sum = bwd_time_sum = optim_step_time_sum = 0
        loss_sum = 0
        model.train()
        for step, batch in enumerate(train_dataloader):
            s_fwd = time.time()
            outputs = model(**batch)
            loss = outputs.loss
            loss_sum += loss.item()
            e_fwd = time.time()
            fwd_time_sum += e_fwd - s_fwd

            s_bwd = time.time()
            loss.backward()
            e_bwd = time.time()
            bwd_time_sum += e_bwd - s_bwd

            s_opt_step = time.time()
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
            optim_step_time_sum += time.time() - s_opt_step

            if step % 4 == 0:
                print(f"[epoch {epoch} step {step}] loss: {loss.item():.4f} "
                      f"lr: {lr_scheduler.get_last_lr()[0]:.2e} fwd: {e_fwd - s_fwd:.3f}s")

        aggregated_loss = loss_sum / len(train_dataloader)
        perplex, eval_loss = evaluate(model, eval_dataloader)
        print(f"epoch {epoch}: train_loss_avg {aggregated_loss:.4f} eval_loss {eval_loss:.4f} "
              f"perplexity {perplex:.2f} avg_fwd {fwd_time_sum / len(train_dataloader):.3f}s")


if __name__ == "__main__":
    training_function({"config": {"num_epochs": 2, "lr": 3e-4, "batch_size": 8}})
