"""Episodic training of a prototypical network (one update per task), then few-shot evaluation where the
support set is embedded once and the query images are scored in mini-batches."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from few_shot import PrototypicalNetworks

torch.manual_seed(0)


def sample_task(n_way=5, n_shot=3, n_query=8, dim=32):
    centers = torch.randn(n_way, dim) * 2
    support = centers.repeat_interleave(n_shot, 0) + torch.randn(n_way * n_shot, dim)
    query = centers.repeat_interleave(n_query, 0) + torch.randn(n_way * n_query, dim)
    return (support, torch.arange(n_way).repeat_interleave(n_shot),
            query, torch.arange(n_way).repeat_interleave(n_query))


def main(n_tasks=3, query_batch=20):
    model = PrototypicalNetworks(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16)))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for task in range(n_tasks):
        support, support_labels, query, query_labels = sample_task()
        model.process_support_set(support, support_labels)
        loss = F.cross_entropy(model(query), query_labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"task {task} query loss {loss.item():.4f}")

    model.eval()
    support, support_labels, query, query_labels = sample_task()
    correct = 0
    with torch.no_grad():
        model.process_support_set(support, support_labels)
        for start in range(0, len(query), query_batch):
            scores = model(query[start:start + query_batch])
            correct += (scores.argmax(1) == query_labels[start:start + query_batch]).sum().item()
    print(f"evaluation accuracy {correct / len(query):.3f}")


if __name__ == "__main__":
    main()
