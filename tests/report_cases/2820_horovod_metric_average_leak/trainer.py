import torch.nn.functional as F
from metrics import Metric, accuracy, graph_size


def train(model, optimizer, train_loader, epoch, batches_per_allreduce=1):
    model.train()
    train_loss = Metric("train_loss")
    train_accuracy = Metric("train_accuracy")
    for batch_idx, (data, target) in enumerate(train_loader):
        optimizer.zero_grad()
        output = model(data)
        train_accuracy.update(accuracy(output, target))
        loss = F.cross_entropy(output, target)
        train_loss.update(loss)
        loss.backward()
        optimizer.step()
        print("epoch", epoch, "batch", batch_idx, "loss meter holds", graph_size(train_loss.sum), "graph nodes")
    return train_loss.avg.item(), train_accuracy.avg.item()
