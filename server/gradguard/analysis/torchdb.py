"""PyTorch's operator facts, read from ``data/torch_ops.json`` (never imports torch).

The table is generated from PyTorch's own metadata by ``scripts/gen_torch_tables.py``
(native_functions.yaml, derivatives.yaml, introspection of torch.nn / torch.optim and, for
operators without a formula of their own, the autograd nodes one call records). It is
loaded once, on first use.

Words used below. *saved*: what an op's backward keeps: its input arguments by name
(``self``, ``other``, ``input``, ``weight``...), ``result`` (its output), ``output`` (another
output, such as the ``indices`` of ``max.dim``) and ``derived`` (a tensor computed inside,
such as dropout's mask). ``None`` means the table cannot tell (an operator that decomposes
into others and could not be probed).
"""

from __future__ import annotations

import json
import os
from functools import lru_cache

_OUTPUTS = frozenset({"result", "output", "derived", "nograd_output"})
OUTPUT_NAMES = _OUTPUTS


@lru_cache(maxsize=None)
def data() -> dict:
    """The whole table (``header``, ``ops``, ``functional``, ``modules``, ``factories``,
    ``optimizers``)."""
    path = os.path.join(os.path.dirname(__file__), "data", "torch_ops.json")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError:
        # not a plain directory (a zip import): importlib.resources (slower to import)
        from importlib import resources
        return json.loads(resources.files(__package__).joinpath(
            "data", "torch_ops.json").read_text("utf-8"))


def torch_version() -> str:
    return data()["header"]["torch"]


def op(name: str) -> dict | None:
    """The entry of ATen operator ``name`` (``add``, ``add_``, ``max``...), overloads merged."""
    return data()["ops"].get(name)


def functional(name: str) -> dict | None:
    """The entry of ``torch.nn.functional.<name>``."""
    return data()["functional"].get(name)


def module(name: str) -> dict | None:
    """The entry of ``torch.nn.<name>`` (a Module class)."""
    return data()["modules"].get(name)


def _diffs(e: dict) -> list:
    d = e["diff"]
    return d if isinstance(d, list) else [d]


def op_saved(name: str) -> frozenset | None:
    """What the backward of ATen op ``name`` saves, over all its overloads."""
    e = op(name)
    if e is None:
        return None
    diffs = _diffs(e)
    saved = set(e["saves"])
    if "composite" in diffs:
        probe = e.get("probe")
        if probe is None:
            return None
        saved.update(probe["saves"])
    return frozenset(saved)


def functional_saved(name: str) -> frozenset | None:
    """What ``torch.nn.functional.<name>`` saves: what its call recorded when probed, else
    what the ATen op it wraps saves."""
    e = functional(name)
    if e is None:
        return None
    if "probe" in e:
        return frozenset(e["probe"]["saves"])
    return op_saved(e["aten"]) if "aten" in e else None


def saving_kind(saved: frozenset | None):
    """The engine's classification: False (saves no tensor that carries a graph: sort
    and topk keep only their indices), "output" (its result, and no input), True
    (anything else that saves: inputs, or only tensors the user never holds such as
    dropout's mask, the engine's default), None (unknown)."""
    if saved is None:
        return None
    if not saved - {"nograd_output"}:
        return False
    if saved <= _OUTPUTS and "result" in saved:
        return "output"
    return True


def carries_graph(name: str) -> bool | None:
    """False when no output of any overload of op ``name`` can require grad (comparisons,
    argmax, integer and bool results, factories, ``non_differentiable`` formulas)."""
    e = op(name)
    if e is None:
        return None
    diffs = set(_diffs(e))
    if "formula" in diffs:
        return True
    if diffs == {"none"}:
        return False
    # composite / no formula: what its probed call did (one overload), else unknown: True
    probe = e.get("probe")
    return bool(probe is None or probe["graph"])


def output_counts(name: str) -> tuple:
    """How many outputs the overloads of op ``name`` that have an output never carrying
    a graph return (``max`` -> (1, 2): ``max(x)`` and ``max(x, dim)``); () when not told."""
    e = op(name)
    return tuple(e.get("returns", ())) if e else ()


def output_fields(name: str) -> tuple:
    """The field names of the named tuple op ``name`` returns when it returns several
    outputs (``max`` -> ("values", "indices")); () when not told."""
    e = op(name)
    return tuple(e.get("fields", ())) if e else ()


def nograd_outputs(name: str) -> tuple:
    """Output positions of op ``name`` that never carry a graph (``max.dim`` -> (1,): its
    indices)."""
    e = op(name)
    return tuple(e.get("nograd", ())) if e else ()


def inplace_variant(name: str) -> str | None:
    e = op(name)
    return e.get("inplace") if e else None


def inplace_of(name: str) -> str | None:
    e = op(name)
    return e.get("of") if e else None


def is_view(name: str) -> bool:
    e = op(name)
    return bool(e and e.get("view"))


def is_fresh(name: str) -> bool:
    """Every overload of op ``name`` returns tensors with no alias annotation in its
    schema: new storages, never one of its inputs'."""
    e = op(name)
    return bool(e and e.get("fresh"))


def has_out(name: str) -> bool:
    e = op(name)
    return bool(e and e.get("out"))


def is_method(name: str) -> bool:
    e = op(name)
    return bool(e and e.get("method"))


def is_function(name: str) -> bool:
    """``torch.<name>`` is this op."""
    e = op(name)
    return bool(e and e.get("fn"))


def factories() -> frozenset:
    """torch.* functions that make a tensor from no tensor."""
    return frozenset(data()["factories"])


def optimizers() -> tuple:
    """torch.optim classes that subclass torch.optim.Optimizer (and Optimizer itself)."""
    return tuple(data()["optimizers"])


def modules() -> dict:
    return data()["modules"]
