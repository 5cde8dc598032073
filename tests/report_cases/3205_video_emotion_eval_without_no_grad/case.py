"""Video emotion classification with a frame CNN followed by a GRU; after every epoch the test clips are
scored and their clip features are kept for a later embedding visualisation."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class VGG_GRU(nn.Module):
    def __init__(self, num_classes=7, feat=32, hidden=32):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2),
                                 nn.Flatten(), nn.Linear(64, feat))
        self.gru = nn.GRU(feat, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, num_classes)

    def forward(self, clips):
        b, t = clips.shape[:2]
        frames = self.cnn(clips.flatten(0, 1)).view(b, t, -1)
        out, h = self.gru(frames)
        output_feature = h[-1]
        return self.fc(output_feature), output_feature


def make_loader(n_batches, batch=4, frames=6):
    return [(torch.randn(batch, frames, 3, 16, 16), torch.randint(0, 7, (batch,))) for _ in range(n_batches)]


def evaluate(model, test_loader, bank):
    model.eval()
    correct = 0
    for clips, labels in test_loader:
        logits, output_feature = model(clips)
        correct += (logits.argmax(1) == labels).sum().item()
        bank.append(output_feature)  # features of every test clip, kept for the t-SNE plot
    model.train()
    return correct


def main(epochs=3):
    model = VGG_GRU()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_loader, test_loader = make_loader(4), make_loader(3)
    feature_bank = []
    for epoch in range(epochs):
        for clips, labels in train_loader:
            logits, _ = model(clips)
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = evaluate(model, test_loader, feature_bank)
        alive = sum(f.grad_fn is not None for f in feature_bank)
        print(f"epoch {epoch} test correct {acc} stored features still holding a graph: {alive}")


if __name__ == "__main__":
    main()
