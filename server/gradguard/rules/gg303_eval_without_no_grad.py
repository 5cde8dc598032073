"""GG303 eval-without-no-grad: an evaluation loop (after ``model.eval()``) that runs
without ``torch.no_grad()`` / ``torch.inference_mode()`` and keeps its outputs builds and
keeps a graph per batch. ``model.eval()`` changes dropout and batch-norm behaviour; it
does not stop autograd (PyTorch docs, "Locally disabling gradient computation").
"""

from __future__ import annotations

import re

from gradguard.analysis.interp import Accumulation
from gradguard.analysis.model import Finding, Fix, Message
from gradguard.analysis.source import Source
from gradguard.rules import N_, Rule
from gradguard.rules.gg301_graph_kept_alive_by_accumulation import detach_fix

RULE = Rule(
    code="GG303",
    name="eval-without-no-grad",
    severity="info",
    summary=N_("An evaluation loop records autograd graphs it never uses"),
    docs=N_("""## What it does
Finds evaluation code (after `model.eval()`) that keeps model outputs or losses across
batches without `torch.no_grad()` or `torch.inference_mode()`.

## Why is this bad
`model.eval()` only switches dropout and batch norm to inference behaviour; autograd
still records a graph for every batch, and whatever keeps the outputs keeps those
graphs and their activations in memory.

## Example
```python
def evaluate(model, loader):
    model.eval()
    total = 0.0
    for x, y in loader:
        total += criterion(model(x), y)
    return total
```

## Use instead
```python
@torch.inference_mode()
def evaluate(model, loader):
    ...
```
"""),
    valid=(
        """import torch
@torch.inference_mode()
def evaluate(model, batches):
    model.eval()
    total = 0.0
    for x in batches:
        total += model(x).sum()
    return total
""",
    ),
    invalid=(
        """import torch
def evaluate(model, batches):
    model.eval()
    total = 0.0
    for x in batches:
        total += model(x).sum()
    return total
""",
    ),
)


def names_torch(text: str) -> bool:
    """Whether the file's text binds the name ``torch`` (``import torch``, ``import
    torch.nn``; not ``import torch.nn as nn``): the decorator fix needs it."""
    return any(_IMPORTS_TORCH.match(line) for line in text.splitlines())


_IMPORTS_TORCH = re.compile(
    r"[ \t]*import[ \t]+(?:[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*,[ \t]*)*torch(?:\.[\w.]+)?"
    r"[ \t]*(?:,|#|;|$)")


def build(rec: Accumulation, src: Source, steps=()) -> Finding:
    """The GG303 finding at the accumulation, fixed by decorating the function, unless
    the function also trains (an optimizer step of ``steps`` ran in it: a ``fit`` that
    validates after each epoch would no longer train)."""
    message = Message(N_("Evaluation after `model.eval()` keeps `{value}` with its graph: "
                         "run it under torch.inference_mode()"),
                      {"value": src.code(rec.value, 40) if rec.value is not None
                       else src.code(rec.acc, 40)})
    fixes = ()
    func = rec.frames[-1][2]
    trains = any(f is func for st in steps for _, _, f in st.frames)
    if func is not None and hasattr(func, "decorators") and not trains and \
            names_torch(src.text_of(src.span(func).path)):
        fixes = (Fix(Message(N_("Run `{func}` under @torch.inference_mode()"),
                             {"func": func.name.value}),
                     (src.insert_line_before(func, "@torch.inference_mode()"),),
                     preferred=True),)
    return Finding(RULE.code, src.span(rec.node), message, (), fixes or detach_fix(rec, src))
