import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LitClassifierWithSaliency(nn.Module):
    """LightningModule-style classifier that also records input gradients (saliency) at test time."""

    def __init__(self, n_classes=4):
        super().__init__()
        self.classifier = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
            nn.Linear(16, n_classes))
        self.last_imgs = None
        self.last_grad = None

    def criterion_ce(self, y_hat, y):
        return F.cross_entropy(y_hat, y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)

    def training_step(self, batch, batch_nb):
        imgs, labels = batch
        return self.criterion_ce(self.classifier(imgs), labels)

    def test_step(self, batch, batch_nb):
        imgs, labels = batch
        self.last_imgs = imgs

        # get gradients
        self.classifier.eval()
        copied_input = imgs.clone()
        copied_input.requires_grad_(True)
        output = self.classifier(copied_input)
        loss = self.criterion_ce(output, labels)
        gradients = torch.autograd.grad(loss, copied_input)[0]
        self.last_grad = gradients
        acc = (output.argmax(1) == labels).float().mean()
        return {"test_acc": acc.item(), "saliency": gradients.abs().mean().item()}


class MiniTrainer:
    """Tiny stand-in for a Lightning Trainer: fit() with grads, test() in evaluation mode."""

    def __init__(self, max_epochs=2):
        self.max_epochs = max_epochs

    def fit(self, module, train_loader):
        optimizer = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            module.train()
            for batch_nb, batch in enumerate(train_loader):
                loss = module.training_step(batch, batch_nb)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            print(f"epoch {epoch} train loss {loss.item():.4f}")

    def test(self, module, test_loader):
        module.eval()
        outputs = []
        with torch.no_grad():  # evaluation loops do not build graphs
            for batch_nb, batch in enumerate(test_loader):
                outputs.append(module.test_step(batch, batch_nb))
        acc = sum(o["test_acc"] for o in outputs) / len(outputs)
        sal = sum(o["saliency"] for o in outputs) / len(outputs)
        print(f"test acc {acc:.3f} mean |d loss / d input| {sal:.5f}")


def make_loader(n_batches, batch_size=16):
    batches = []
    for _ in range(n_batches):
        labels = torch.randint(0, 4, (batch_size,))
        imgs = torch.randn(batch_size, 1, 12, 12) * 0.5
        for k in range(4):  # class k = bright quadrant k
            r, c = divmod(k, 2)
            imgs[labels == k, :, r * 6:(r + 1) * 6, c * 6:(c + 1) * 6] += 1.0
        batches.append((imgs, labels))
    return batches


if __name__ == "__main__":
    model = LitClassifierWithSaliency()
    trainer = MiniTrainer(max_epochs=2)
    trainer.fit(model, make_loader(6))
    trainer.test(model, make_loader(2))
