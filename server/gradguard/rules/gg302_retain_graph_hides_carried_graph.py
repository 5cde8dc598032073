"""GG302 retain-graph-hides-carried-graph: ``retain_graph=True`` on a backward in a loop
whose graph reaches into an earlier iteration. The "backward through the graph a second
time" error is silenced, but every step now backpropagates through all earlier
iterations: time and memory grow with the step count.
"""

from __future__ import annotations

from gradguard.analysis.interp import Hazard, Interpreter
from gradguard.analysis.model import Edit, Finding, Fix, Message
from gradguard.analysis.source import Source
from gradguard.rules import N_, Rule
from gradguard.rules import common as C
from gradguard.rules.gg102_graph_carried_across_iterations import carried_variables, detach_lines

RULE = Rule(
    code="GG302",
    name="retain-graph-hides-carried-graph",
    severity="warning",
    summary=N_("retain_graph=True hides a graph carried across loop iterations"),
    docs=N_("""## What it does
Finds `backward(retain_graph=True)` inside a loop whose graph includes something built
in an earlier iteration (an RNN hidden state, a running sum).

## Why is this bad
Without `retain_graph=True` this would fail with "Trying to backward through the graph
a second time". With it, every iteration's graph stays in memory, chained to the next
one through the carried state, and each backward walks back through all of them: step
time and memory grow with the number of steps, and the gradients mix in history.

## Example
```python
for x, y in chunks:
    out, h = rnn(x, h)
    loss = crit(out, y)
    loss.backward(retain_graph=True)
```

## Use instead
Detach the carried state and drop `retain_graph=True`:
```python
for x, y in chunks:
    out, h = rnn(x, h)
    loss = crit(out, y)
    loss.backward()
    h = h.detach()
```
"""),
    valid=(
        """import torch
rnn = torch.nn.RNN(2, 4)
h = None
for _ in range(3):
    out, h = rnn(torch.randn(5, 1, 2), h)
    out.sum().backward()
    h = h.detach()
""",
    ),
    invalid=(
        """import torch
rnn = torch.nn.RNN(2, 4)
h = None
for _ in range(3):
    out, h = rnn(torch.randn(5, 1, 2), h)
    out.sum().backward(retain_graph=True)
""",
    ),
)


def build(h: Hazard, interp: Interpreter, src: Source) -> Finding:
    """The GG302 finding at the backward with retain_graph=True."""
    carried = carried_variables(h, src)
    name = ", ".join(n for n, _ in carried) if carried else "state"
    # what stays in memory: the graph of the earlier iteration the backward reaches (the
    # segments built in the same pass as the first one found), chained to every other
    first = interp.segs[h.segs[0]].stamp
    args = C.retain_cost(h, interp, src, [s for s in h.val_segs if interp.segs[s].stamp == first],
                         prefer=[str(n) for n, _ in carried])
    msgid = N_("retain_graph=True hides that `{tensor}` reaches the previous iteration's "
               "graph through `{carried}`: the graph of `{graph}` (built on line "
               "{built_line}, through {through}) and every iteration's graph chained to it "
               "stay in memory, and each backward runs through all of them, so time and "
               "memory grow with every step") if "through" in args else \
        N_("retain_graph=True hides that `{tensor}` reaches the previous iteration's graph "
           "through `{carried}`: the graph of `{graph}` (built on line {built_line}) and "
           "every iteration's graph chained to it stay in memory, and each backward runs "
           "through all of them, so time and memory grow with every step")
    message = Message(msgid, {"tensor": C.tensor_name(h, src), "carried": name, **args})
    fixes = ()
    call = h.node
    arg = next((a for a in call.args if a.keyword is not None
                and a.keyword.value == "retain_graph"), None)
    stmt = h.frames[-1][1]
    lines = detach_lines(carried) if carried else None
    if lines and arg is not None and stmt is not None:
        args = list(call.args)
        i = args.index(arg)
        if len(args) == 1:
            remove = Edit(src.span(arg), "")
        elif i == len(args) - 1:
            remove = Edit(type(src.span(arg))(src.span(args[i - 1]).end, src.span(arg).end), "")
        else:
            remove = Edit(type(src.span(arg))(src.span(arg).start, src.span(args[i + 1]).start), "")
        fixes = (Fix(Message(N_("Detach `{carried}` after the backward and drop "
                                "retain_graph=True"), {"carried": name}),
                     (remove, src.insert_line_after(stmt, *lines)),
                     preferred=True),)
    return Finding(RULE.code, src.site(call), message, (), fixes)
