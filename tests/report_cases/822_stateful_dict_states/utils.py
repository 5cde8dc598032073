"""Helpers to cut recurrent state from its autograd history (cf. ignite tbptt)."""
from collections.abc import Mapping, Sequence

import torch


def detach_states(states):
    if isinstance(states, torch.Tensor):
        return states.detach()
    if isinstance(states, Mapping):
        return {k: detach_states(v) for k, v in states.items()}
    if isinstance(states, Sequence) and not isinstance(states, str):
        return type(states)(detach_states(v) for v in states)
    return states


def chunks(seq, size):
    for start in range(0, seq.size(0) - 1, size):
        end = min(start + size, seq.size(0) - 1)
        yield seq[start:end], seq[start + 1:end + 1]
