from collections import deque

import torch


class CrossBatchMemory:
    """FIFO of past embeddings/labels used as extra negatives (XBM)."""

    def __init__(self, memory_size):
        self.memory_size = memory_size
        self.embeddings = deque()
        self.labels = deque()
        self.count = 0

    def __len__(self):
        return self.count

    def enqueue(self, embeddings, labels):
        self.embeddings.append(embeddings.detach())
        self.labels.append(labels.detach())
        self.count += embeddings.size(0)
        while self.count > self.memory_size:
            old = self.embeddings.popleft()
            self.labels.popleft()
            self.count -= old.size(0)

    def get(self):
        return torch.cat(list(self.embeddings)), torch.cat(list(self.labels))
