"""Mixed-precision training step with GradScaler, unscale_ before gradient clipping."""
import torch
import torch.nn as nn
import torch.nn.functional as F

DEVICE = "cpu"
AMP_DTYPE = torch.bfloat16


class TokenClassifier(nn.Module):
    def __init__(self, vocab=50, dim=32, n_classes=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.encoder = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, batch_first=True,
                                                  dropout=0.0)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, tokens):
        return self.head(self.encoder(self.emb(tokens)).mean(dim=1))


def get_batch(batch=8, seq=10):
    tokens = torch.randint(0, 50, (batch, seq))
    return tokens, tokens[:, 0] % 5


def train(steps=6, max_norm=1.0):
    model = TokenClassifier().to(DEVICE)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.01)
    scaler = torch.amp.GradScaler(DEVICE, init_scale=2.0 ** 11)
    for step in range(steps):
        tokens, labels = get_batch()
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type=DEVICE, dtype=AMP_DTYPE):
            logits = model(tokens)
            loss = F.cross_entropy(logits.float(), labels)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        scaler.step(optimizer)
        scaler.update()
        print(f"step {step} loss {loss.item():.4f} grad_norm {grad_norm.item():.3f} scale {scaler.get_scale():.0f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train()
