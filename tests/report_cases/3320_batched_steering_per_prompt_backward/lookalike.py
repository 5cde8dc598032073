"""Learning additive steering vectors on a frozen toy language model. Several prompts are traced together:
a Tracer batches the invokes into a single forward pass and hands each invoke its slice of the logits."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

CFG = dict(vocab=50, d_model=32, n_layers=2, seq_len=10, n_prompts=3, steer_layer=1, lr=5e-2, epochs=8)


class ToyLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab"], cfg["d_model"])
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(cfg["d_model"], 4, 64, dropout=0.0, batch_first=True)
            for _ in range(cfg["n_layers"]))
        self.head = nn.Linear(cfg["d_model"], cfg["vocab"])

    def forward(self, ids, edits=None):
        h = self.embed(ids)
        for i, layer in enumerate(self.layers):
            h = layer(h)
            if edits and i in edits:
                h = edits[i](h)
        return self.head(h)


class Invoke:
    def __init__(self, ids, target):
        self.ids, self.target = ids, target
        self.logits = None


class Tracer:
    """Collects invokes, runs them as one batch, then scatters the outputs back."""

    def __init__(self, model, edits):
        self.model, self.edits, self.invokes = model, edits, []

    def invoke(self, ids, target):
        inv = Invoke(ids, target)
        self.invokes.append(inv)
        return inv

    def run(self):
        ids = torch.stack([inv.ids for inv in self.invokes])
        logits = self.model(ids, self.edits)
        for i, inv in enumerate(self.invokes):
            inv.logits = logits[i]
        return self.invokes


class SteeringVectors(nn.Module):
    def __init__(self, n_prompts, d_model):
        super().__init__()
        self.vectors = nn.Parameter(torch.zeros(n_prompts, 1, d_model))

    def forward(self, h):
        return h + self.vectors


def main(cfg):
    model = ToyLM(cfg).eval()
    model.requires_grad_(False)
    steer = SteeringVectors(cfg["n_prompts"], cfg["d_model"])
    optimizer = torch.optim.Adam(steer.parameters(), lr=cfg["lr"])
    prompts = torch.randint(0, cfg["vocab"], (cfg["n_prompts"], cfg["seq_len"]))
    targets = torch.randint(0, cfg["vocab"], (cfg["n_prompts"],))
    for epoch in range(cfg["epochs"]):
        optimizer.zero_grad()
        tracer = Tracer(model, {cfg["steer_layer"]: steer})
        for ids, tgt in zip(prompts, targets):
            tracer.invoke(ids, tgt)
        total = 0.0
        invokes = tracer.run()
        for i, inv in enumerate(invokes):
            loss = F.cross_entropy(inv.logits[-1:], inv.target.view(1))
            loss.backward(retain_graph=i < len(invokes) - 1)
            total += loss.item()
        optimizer.step()
        print(f"epoch {epoch}: loss={total / cfg['n_prompts']:.4f}")


if __name__ == "__main__":
    main(CFG)
