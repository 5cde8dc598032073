import torch
import torch.nn as nn


def filter_shard_state(state, shard_size):
    for k, v in state.items():
        if v is not None:
            v_split = []
            for v_chunk in torch.split(v, shard_size):
                v_chunk = v_chunk.data.clone()
                v_chunk.requires_grad = v.requires_grad
                v_split.append(v_chunk)
            yield k, (v, v_split)


def shards(state, shard_size, extra_losses=()):
    """OpenNMT-style sharding: yield detached chunks, then backprop the chunk grads in one go."""
    non_none = dict(filter_shard_state(state, shard_size))
    keys, values = zip(*((k, v_split) for k, (_, v_split) in non_none.items()))
    for shard_tensors in zip(*values):
        yield dict(zip(keys, shard_tensors))
    variables = []
    for k, (v, v_split) in non_none.items():
        if v.requires_grad:
            variables.extend(zip(torch.split(v, shard_size), [c.grad for c in v_split]))
    inputs, grads = zip(*variables)
    torch.autograd.backward(list(inputs) + list(extra_losses), list(grads) + [None] * len(extra_losses))


class NMTLossCompute(nn.Module):
    def __init__(self, generator, padding_idx=0):
        super().__init__()
        self.generator = generator
        self.criterion = nn.NLLLoss(ignore_index=padding_idx, reduction="sum")

    def _compute_loss(self, output, target):
        scores = self.generator(output.view(-1, output.size(-1)))
        return self.criterion(scores, target.reshape(-1))

    def __call__(self, batch_tgt, output, normalization, shard_size=2):
        total = 0.0
        shard_state = {"output": output, "target": batch_tgt[1:]}
        for shard in shards(shard_state, shard_size):
            loss = self._compute_loss(**shard)
            loss.div(float(normalization)).backward()
            total += loss.item()
        return total
