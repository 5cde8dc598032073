"""Train the patch classifier on random images (keras-example port)."""
import torch
import torch.nn.functional as F

from model import PatchClassifier

LEARNING_RATE = 1e-3
WEIGHT_DECAY = 1e-4
BATCH_SIZE = 8
NUM_EPOCHS = 2
STEPS_PER_EPOCH = 2


def get_batch():
    x = torch.rand(BATCH_SIZE, 3, 8, 8)
    y = torch.randint(0, 5, (BATCH_SIZE,))
    return x, y


def run_experiment():
    model = PatchClassifier()
    optimizer = torch.optim.AdamW(model.parameters(), lr=LEARNING_RATE, weight_decay=WEIGHT_DECAY)
    metrics = {"loss": [], "accuracy": []}
    for epoch in range(NUM_EPOCHS):
        model.train()
        for _ in range(STEPS_PER_EPOCH):
            x, y = get_batch()
            logits = model(x)
            loss = F.cross_entropy(logits, y, label_smoothing=0.1)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            metrics["loss"].append(loss.item())
            metrics["accuracy"].append((logits.argmax(-1) == y).float().mean().item())
        print(f"Epoch {epoch + 1}/{NUM_EPOCHS} - loss: {metrics['loss'][-1]:.4f} - acc: {metrics['accuracy'][-1]:.3f}")
    return metrics


if __name__ == "__main__":
    torch.manual_seed(5)
    run_experiment()
