"""GG104 detach-result-discarded: ``x.detach()`` as a statement does nothing.

``Tensor.detach()`` returns a new tensor and leaves ``x`` attached to its graph
(torch.Tensor.detach docs); only ``detach_()`` works in place.
"""

from __future__ import annotations

import libcst as cst

from gradguard.analysis.interp import DiscardedDetach
from gradguard.analysis.model import Finding, Fix, Message
from gradguard.analysis.source import Source
from gradguard.rules import N_, Rule

RULE = Rule(
    code="GG104",
    name="detach-result-discarded",
    severity="warning",
    summary=N_("The result of detach() is thrown away, so the tensor keeps its graph"),
    docs=N_("""## What it does
Finds `x.detach()` written as a statement of its own.

## Why is this bad
`detach()` is not in place: it returns a new tensor without history and leaves `x`
attached to its graph. Code that means to cut a carried state (truncated BPTT) then
still backpropagates into the previous, freed graph.

## Example
```python
for h in state.hidden:
    h.detach()
```

## Use instead
Assign the result, or detach in place:
```python
state.hidden = tuple(h.detach() for h in state.hidden)
# or
for h in state.hidden:
    h.detach_()
```
"""),
    valid=(
        """import torch
h = torch.zeros(3, requires_grad=True) * 2
h = h.detach()
""",
    ),
    invalid=(
        """import torch
h = torch.zeros(3, requires_grad=True) * 2
h.detach()
""",
    ),
)


def build_all(detaches: list[DiscardedDetach], src: Source) -> list[Finding]:
    """One finding per discarded ``detach()``; each fix repairs every discarded detach
    of the same function, since they make one mistake together."""
    groups: dict = {}
    for d in detaches:
        groups.setdefault(id(d.func), []).append(d)
    out = []
    for group in groups.values():
        edits = tuple(_edit(d, src) for d in group)
        for d in group:
            name = src.code(d.target, 40)
            message = Message(N_("`{name}.detach()` returns a new tensor and the result is "
                                 "discarded: `{name}` keeps its graph"), {"name": name})
            title = Message(N_("Detach in place (assign the result, or detach_() for a loop "
                               "variable)"), {})
            out.append(Finding(RULE.code, src.span(d.call), message, (),
                               (Fix(title, edits, preferred=True),)))
    return out


def _edit(d: DiscardedDetach, src: Source):
    if d.loop_target or not isinstance(d.target, (cst.Name, cst.Attribute, cst.Subscript)):
        return src.append_to(d.call.func.attr, "_")
    return src.prepend_to(d.call, f"{src.code(d.target, 200)} = ")
