"""Multi-class classification of 2-D blobs (notebook style): logits -> prediction probabilities ->
prediction labels, with the loss and accuracy computed every epoch."""
import torch
from torch import nn

torch.manual_seed(42)

NUM_CLASSES, NUM_FEATURES = 4, 2
centers = torch.tensor([[-2.0, -2.0], [2.0, 2.0], [-2.0, 2.0], [2.0, -2.0]])
y_blob = torch.randint(0, NUM_CLASSES, (80,))
X_blob = centers[y_blob] + 0.8 * torch.randn(80, NUM_FEATURES)
X_train, X_test, y_train, y_test = X_blob[:64], X_blob[64:], y_blob[:64], y_blob[64:]

model = nn.Sequential(nn.Linear(NUM_FEATURES, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, NUM_CLASSES))
loss_fn = nn.CrossEntropyLoss()
optimiser = torch.optim.SGD(model.parameters(), lr=0.1)


def accuracy(y_true, y_pred):
    return (torch.eq(y_true, y_pred).sum().item() / len(y_pred)) * 100


Epochs = 20
for epoch in range(Epochs):
    model.train()
    train_logits = model(X_train)
    train_preds_probs = torch.softmax(train_logits, dim=1)
    loss = torch.nn.functional.nll_loss(torch.log(train_preds_probs + 1e-9), y_train)
    train_accu = accuracy(y_train, train_preds_probs.argmax(dim=1).type(torch.float32))
    optimiser.zero_grad()
    loss.backward()
    optimiser.step()
    model.eval()
    with torch.inference_mode():
        test_preds = torch.softmax(model(X_test), dim=1).argmax(dim=1)
    if epoch % 5 == 0:
        print(f"epoch {epoch} loss {loss.item():.4f} train acc {train_accu:.1f}% test acc {accuracy(y_test, test_preds):.1f}%")
