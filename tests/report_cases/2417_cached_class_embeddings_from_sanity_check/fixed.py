"""Zero-shot-style classifier: frozen image encoder, trainable projection of
fixed class-prompt embeddings.  A small Lightning-like trainer runs a sanity
validation pass (under no_grad) before fitting."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class PromptClassifier(nn.Module):
    def __init__(self, img_dim, txt_dim, n_classes, temperature=0.07):
        super().__init__()
        self.image_encoder = nn.Sequential(nn.Linear(64, img_dim), nn.ReLU(), nn.Linear(img_dim, img_dim))
        self.image_encoder.requires_grad_(False)                     # pretrained, frozen
        self.register_buffer("class_prompts", torch.randn(n_classes, txt_dim))
        self.text_proj = nn.Linear(txt_dim, img_dim)
        self.temperature = temperature
        self._class_embeddings = None

    def class_embeddings(self):
        # the projection is trained: only reuse a cached copy in eval mode
        if self.training:
            self._class_embeddings = None
            return F.normalize(self.text_proj(self.class_prompts), dim=-1)
        if self._class_embeddings is None:
            with torch.no_grad():
                self._class_embeddings = F.normalize(self.text_proj(self.class_prompts), dim=-1)
        return self._class_embeddings

    def forward(self, images):
        feats = F.normalize(self.image_encoder(images), dim=-1)
        return feats @ self.class_embeddings().t() / self.temperature


class LitModule:
    def __init__(self, model, lr):
        self.model, self.lr = model, lr

    def configure_optimizers(self):
        return torch.optim.AdamW([p for p in self.model.parameters() if p.requires_grad], lr=self.lr)

    def training_step(self, batch):
        x, y = batch
        return F.cross_entropy(self.model(x), y)

    def validation_step(self, batch):
        x, y = batch
        return (self.model(x).argmax(-1) == y).float().mean()


class Trainer:
    def __init__(self, max_epochs, num_sanity_val_steps=2):
        self.max_epochs, self.num_sanity_val_steps = max_epochs, num_sanity_val_steps

    def _validate(self, module, loader, limit=None):
        module.model.eval()
        with torch.no_grad():
            accs = [module.validation_step(b) for i, b in enumerate(loader) if limit is None or i < limit]
        module.model.train()
        return torch.stack(accs).mean().item()

    def fit(self, module, train_loader, val_loader):
        optimizer = module.configure_optimizers()
        if self.num_sanity_val_steps:
            self._validate(module, val_loader, limit=self.num_sanity_val_steps)
        for epoch in range(self.max_epochs):
            for batch in train_loader:
                loss = module.training_step(batch)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            print(f"epoch {epoch} loss {loss.item():.4f} val_acc {self._validate(module, val_loader):.3f}")


def make_loader(n_batches, n_classes, centers):
    batches = []
    for _ in range(n_batches):
        y = torch.randint(0, n_classes, (32,))
        batches.append((centers[y] + 0.5 * torch.randn(32, 64), y))
    return batches


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n_classes", type=int, default=5)
    parser.add_argument("--max_epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()
    torch.manual_seed(0)
    centers = torch.randn(args.n_classes, 64)
    module = LitModule(PromptClassifier(32, 16, args.n_classes), args.lr)
    Trainer(args.max_epochs).fit(module, make_loader(10, args.n_classes, centers),
                                 make_loader(3, args.n_classes, centers))


if __name__ == "__main__":
    main()
