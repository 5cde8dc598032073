import torch
import torch.nn.functional as F

from model import TinyEfficientNet

HP = {"epochs": 2, "batches": 2, "batch_size": 8, "image_size": 16, "num_classes": 10,
      "lr": 0.016, "momentum": 0.9, "weight_decay": 1e-5, "label_smoothing": 0.1}


def main():
    torch.manual_seed(0)
    model = TinyEfficientNet(num_classes=HP["num_classes"])
    optimizer = torch.optim.RMSprop(model.parameters(), lr=HP["lr"], alpha=0.9, eps=1e-3,
                                    momentum=HP["momentum"], weight_decay=HP["weight_decay"])
    stats = {"loss": [], "acc": []}
    for epoch in range(HP["epochs"]):
        model.train()
        for _ in range(HP["batches"]):
            images = torch.randn(HP["batch_size"], 3, HP["image_size"], HP["image_size"])
            labels = torch.randint(0, HP["num_classes"], (HP["batch_size"],))
            logits = model(images)
            loss = F.cross_entropy(logits, labels, label_smoothing=HP["label_smoothing"])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            stats["loss"].append(loss.item())
            stats["acc"].append((logits.argmax(1) == labels).float().mean().item())
        print(f"epoch {epoch}: loss {sum(stats['loss'][-HP['batches']:]) / HP['batches']:.4f}")


if __name__ == "__main__":
    main()
