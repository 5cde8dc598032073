"""Episodic training of a prototypical network: each task's support set is embedded once, then the task's
query images are scored in mini-batches, with an optimizer step after each mini-batch."""
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
        for start in range(0, len(query), query_batch):
            model.process_support_set(support, support_labels)  # fresh prototypes for every update
            scores = model(query[start:start + query_batch])
            loss = F.cross_entropy(scores, query_labels[start:start + query_batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"task {task} last query loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
