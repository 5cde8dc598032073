"""OpenNMT-py style sharded loss: the generator + criterion run on detached
shards of the decoder output, then gradients are pushed back into the decoder
with one torch.autograd.backward call."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def filter_shard_state(state, shard_size=None):
    for k, v in state.items():
        if shard_size is None:
            yield k, v
        if v is not None:
            v_split = []
            if isinstance(v, torch.Tensor):
                for v_chunk in torch.split(v, shard_size):
                    v_chunk = v_chunk.data.clone()
                    v_chunk.requires_grad = v.requires_grad
                    v_split.append(v_chunk)
            yield k, (v, v_split)


def shards(state, shard_size, eval_only=False):
    if eval_only:
        yield dict(filter_shard_state(state))
        return
    non_none = dict(filter_shard_state(state, shard_size))
    keys, values = zip(*((k, v_split) for k, (_, v_split) in non_none.items()))
    for shard_tensors in zip(*values):
        yield dict(zip(keys, shard_tensors))
    variables = []
    for k, (v, v_split) in non_none.items():
        if isinstance(v, torch.Tensor) and state[k].requires_grad:
            variables.extend(zip(torch.split(state[k], shard_size), [v_chunk.grad for v_chunk in v_split]))
    inputs, grads = zip(*variables)
    torch.autograd.backward(inputs, grads)


class NMTLossCompute(nn.Module):
    def __init__(self, generator, padding_idx):
        super().__init__()
        self.generator, self.padding_idx = generator, padding_idx

    def _make_shard_state(self, batch_tgt, output):
        return {"output": output, "target": batch_tgt[1:]}

    def _compute_loss(self, output, target):
        scores = self.generator(output.reshape(-1, output.size(-1)))
        loss = F.nll_loss(scores, target.reshape(-1), ignore_index=self.padding_idx, reduction="sum")
        n_words = target.ne(self.padding_idx).sum().item()
        return loss, loss.item(), n_words

    def sharded_compute_loss(self, batch_tgt, output, shard_size, normalization):
        total, words = 0.0, 0
        shard_state = self._make_shard_state(batch_tgt, output)
        for shard in shards(shard_state, shard_size):
            loss, loss_val, n_words = self._compute_loss(**shard)
            loss.div(float(normalization)).backward()
            total, words = total + loss_val, words + n_words
        return total, words
