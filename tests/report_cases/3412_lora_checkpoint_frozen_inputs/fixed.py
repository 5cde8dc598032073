"""LoRA fine-tuning of a (pretend) pretrained tiny LM with activation
checkpointing to save memory. Model and adapter code live in lora.py."""
import torch

from lora import TinyLM, inject_lora

torch.manual_seed(0)


def make_corpus(n=256, ctx=16, vocab=64):
    start = torch.randint(0, vocab, (n, 1))
    steps = torch.arange(ctx).unsqueeze(0)
    return (start + 3 * steps) % vocab


@torch.no_grad()
def evaluate(model, data):
    model.eval()
    loss = model(data[:64], labels=data[:64]).item()
    model.train()
    return torch.exp(torch.tensor(loss)).item()


@torch.no_grad()
def greedy_continue(model, prompt, steps=6):
    model.eval()
    seq = prompt
    for _ in range(steps):
        logits = model(seq[:, -16:])
        seq = torch.cat([seq, logits[:, -1].argmax(-1, keepdim=True)], dim=1)
    model.train()
    return seq


def main():
    model = TinyLM()
    lora_params = inject_lora(model, targets=("q", "v"), r=4)
    model.gradient_checkpointing_enable()
    model.enable_input_require_grads()
    model.train()
    n_train = sum(p.numel() for p in lora_params)
    n_total = sum(p.numel() for p in model.parameters())
    print(f"trainable params: {n_train} || all params: {n_total}")

    optimizer = torch.optim.AdamW(lora_params, lr=5e-3)
    data = make_corpus()
    for step in range(15):
        batch = data[torch.randint(0, len(data), (16,))]
        loss = model(batch, labels=batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 5 == 0:
            print(f"step {step}: loss {loss.item():.3f}")
    print(f"eval perplexity: {evaluate(model, data):.2f}")
    print(greedy_continue(model, data[:1, :4]).tolist())


if __name__ == "__main__":
    main()
