import torch


class Buffer:
    """Per-agent circular storage kept as preallocated tensors."""

    def __init__(self, size, obs_dims, act_dims):
        self.size, self.ptr, self.full = size, 0, False
        n = len(obs_dims)
        self.o = [torch.zeros(size, d) for d in obs_dims]
        self.u = [torch.zeros(size, d) for d in act_dims]
        self.r = [torch.zeros(size, 1) for _ in range(n)]
        self.o_next = [torch.zeros(size, d) for d in obs_dims]

    def store_episode(self, o, u, r, o_next):
        i = self.ptr
        for k in range(len(self.o)):
            self.o[k][i], self.u[k][i], self.r[k][i], self.o_next[k][i] = o[k], u[k], r[k], o_next[k]
        self.ptr = (self.ptr + 1) % self.size
        self.full = self.full or self.ptr == 0

    def __len__(self):
        return self.size if self.full else self.ptr

    def sample(self, batch_size):
        idx = torch.randint(0, len(self), (batch_size,))
        return {
            "o": [x[idx] for x in self.o],
            "u": [x[idx] for x in self.u],
            "r": [x[idx] for x in self.r],
            "o_next": [x[idx] for x in self.o_next],
        }
