"""GG301 graph-kept-alive-by-accumulation: a graph-carrying tensor accumulated into a
running value or container that outlives the iteration keeps every iteration's graph
(and, before backward, its activations) alive.

PyTorch FAQ, "My model reports 'cuda runtime error(2): out of memory'": "Don't
accumulate history across your training loop ... use ``total_loss += float(loss)``".
"""

from __future__ import annotations

import libcst as cst

from gradguard.analysis.interp import Accumulation, Interpreter
from gradguard.analysis.model import Edit, Finding, Fix, Message, Related
from gradguard.analysis.source import Source
from gradguard.rules import N_, Rule
from gradguard.rules.common import path_to

RULE = Rule(
    code="GG301",
    name="graph-kept-alive-by-accumulation",
    severity="warning",
    summary=N_("A running total or list keeps every iteration's autograd graph alive"),
    docs=N_("""## What it does
Finds a tensor that carries an autograd graph accumulated into something that outlives
the loop iteration (`total_loss += loss`, `losses.append(loss)`, `history[k] = out`,
an attribute on `self`) and that no backward runs through. Gradient accumulation, where the
accumulated value is backpropagated, is not reported.

## Why is this bad
The accumulator references every iteration's graph, so nothing of it can be freed:
memory grows with every step until the process runs out of memory.

## Example
```python
total_loss = 0.0
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    total_loss += loss
```

## Use instead
Accumulate the value without its graph: `.item()` for a scalar you log, `.detach()`
otherwise:
```python
    total_loss += loss.item()
```
"""),
    valid=(
        """import torch
net = torch.nn.Linear(2, 1)
total = 0.0
for _ in range(3):
    loss = net(torch.randn(4, 2)).pow(2).mean()
    loss.backward()
    total += loss.item()
""",
    ),
    invalid=(
        """import torch
net = torch.nn.Linear(2, 1)
total = 0.0
for _ in range(3):
    loss = net(torch.randn(4, 2)).pow(2).mean()
    loss.backward()
    total += loss
""",
    ),
)


def build(rec: Accumulation, interp: Interpreter, src: Source) -> Finding:
    """The GG301 finding at the accumulation."""
    acc = src.code(rec.acc, 40)
    value = ", ".join(src.code(p, 40) for p in rec.parts) if rec.parts else \
        src.code(rec.value, 40) if rec.value is not None else "value"
    args = {"acc": acc, "value": value}
    related = ()
    if rec.emptied is not None and rec.passes <= rec.emptied_passes:
        # emptied every few iterations: what stays is bounded, and says until when
        message = Message(N_("`{acc}` accumulates `{value}` with its autograd graph: the "
                             "graph of each iteration stays in memory until `{acc}` is "
                             "emptied"), args)
        related = (Related(src.span(rec.emptied), Message(N_("emptied here"), {})),)
    else:
        message = Message(N_("`{acc}` accumulates `{value}` with its autograd graph: every "
                             "iteration's graph stays in memory"), args)
    # (at the first element of a dict or list display that holds a graph)
    site = src.span(rec.parts[0] if rec.parts else rec.node)
    call = _handed_in(rec, interp, src)
    func = rec.frames[-1][2] if rec.frames else None
    here = None  # where it piles up, when the finding is at the call that hands it in
    if call is None and isinstance(func, cst.FunctionDef) and \
            path_to(func, rec.node) is None and path_to(func, rec.acc) is not None:
        # the engine already moved it to the call that handed its parameter in as given
        # (``self.update(value)``, ``metric(preds)``)
        here = src.span(rec.acc)
    elif call is not None and src.span(call).start.line != site.start.line:
        # a function with no loop of its own (a logger's log(), a meter's update()) given
        # a graph built by its caller: reported at that call, where the graph is handed in
        here, site = site, src.span(call)
    if here is not None:
        name = func.name.value
        if rec.emptied is None:
            message = Message(N_("`{acc}` (in `{function}`) accumulates `{value}` with the "
                                 "autograd graph this call hands in: every iteration's graph "
                                 "stays in memory"), {**args, "function": name})
        related = (Related(here, Message(N_("accumulated here, in `{function}`"),
                                         {"function": name})),) + related
    return Finding(RULE.code, site, message, related, detach_fix(rec, src))


def _handed_in(rec: Accumulation, interp: Interpreter, src: Source):
    """The statement of this file that called the function that accumulates, when that
    function accumulates outside any loop of its own and what it accumulates was built
    before it was called (in its callers: every segment that made the accumulated values
    belongs to another frame); else None."""
    if len(rec.frames) < 2 or not rec.heads:
        return None
    fid, stmt, func = rec.frames[-1]
    caller = rec.frames[-2][1]
    if not isinstance(func, cst.FunctionDef) or caller is None or \
            src.span(caller).path is not None:
        return None
    path = path_to(func, rec.node)
    if path is None or any(isinstance(n, (cst.For, cst.While)) for n in path):
        return None  # (or already at the call that handed its parameter in)
    if any(interp.segs[h].frame == fid for h in rec.heads if h in interp.segs):
        return None
    return caller


def detach_fix(rec: Accumulation, src: Source) -> tuple[Fix, ...]:
    """Accumulate ``value.detach()`` instead of ``value``."""
    nodes = rec.parts or ((rec.value,) if rec.value is not None and not rec.container
                          else ())
    if not nodes:
        return ()  # (a tuple, list or dict has no .detach(): each tensor in it would need it)
    edits = []
    for node in nodes:
        text = src.module.code_for_node(node)
        if not isinstance(node, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
            text = f"({text})"
        edits.append(Edit(src.span(node), f"{text}.detach()"))
    return (Fix(Message(N_("Accumulate `{value}` without its graph (.detach())"),
                        {"value": ", ".join(src.code(n, 40) for n in nodes)}),
                tuple(edits), preferred=True),)
