"""GG103 graph-reused-across-iterations: a graph-carrying tensor computed once, before a
loop (or cached on an object), feeds every iteration's loss; the first iteration's
backward frees its graph and the second iteration walks it again.

PyTorch docs, autograd mechanics ("Saved tensors"): a backward frees the buffers of the
graph it walked unless ``retain_graph=True``.
"""

from __future__ import annotations


import libcst as cst

from gradguard.analysis.interp import Hazard, Interpreter
from gradguard.analysis.model import Finding, Fix, Message
from gradguard.analysis.source import Source
from gradguard.rules import N_, Rule
from gradguard.rules import common as C

RULE = Rule(
    code="GG103",
    name="graph-reused-across-iterations",
    severity="error",
    summary=N_("A graph built once before a loop is backpropagated through in every iteration"),
    docs=N_("""## What it does
Finds a tensor that carries an autograd graph, computed once before a loop (or cached),
and used in the loss of every iteration.

## Why is this bad
The first iteration's backward frees the graph behind that tensor; the second
iteration's backward walks it again and raises
`RuntimeError: Trying to backward through the graph a second time`.
`retain_graph=True` silences it, but keeps that graph in memory for the whole loop,
and every iteration's backward runs through the same graph again, computed once before
the loop with the parameters and inputs of then.

## Example
```python
values = net(states)
for t in range(T):
    loss = (targets[t] - values[t]) ** 2
    loss.backward()
```

## Use instead
Compute it inside the loop, so each iteration has its own graph:
```python
for t in range(T):
    values = net(states)
    loss = (targets[t] - values[t]) ** 2
    loss.backward()
```
If it is a constant for the loop (a teacher's output, a target), build it under
`torch.no_grad()` or `.detach()` it.
"""),
    valid=(
        """import torch
net = torch.nn.Linear(2, 1)
states = torch.randn(5, 2)
for t in range(3):
    values = net(states)
    values[t].sum().backward()
""",
    ),
    invalid=(
        """import torch
net = torch.nn.Linear(2, 1)
states = torch.randn(5, 2)
values = net(states)
for t in range(3):
    values[t].sum().backward()
""",
    ),
)


def build(h: Hazard, interp: Interpreter, src: Source) -> Finding:
    """The GG103 finding for a hazard of kind "reused"."""
    label, built = C.graph_site(C.graph_seg(h, interp), src, h)
    args = {"tensor": C.tensor_name(h, src), "graph": label,
            "built_line": src.line_ref(built),
            "freed_line": C.free_line(h, interp, src)}
    message = Message(N_("`{tensor}` uses `{graph}`, built once on line {built_line} before "
                         "the loop; the backward on line {freed_line} frees its graph in the "
                         "first iteration, so the next iteration fails"), args)
    # (what no optimizer trains is cut where it is built; what no optimizer stepping in
    # the loop trains is the loop's fixed input, cut where the loop's losses read it;
    # else it is built anew in each iteration)
    fixes = [f for f in (_detach_where_built(h, interp, src) or
                         C.detach_uses(h, interp, src, second=False) or
                         _recompute_in_loop(h, interp, src),
                         C.retain_fix(h, interp, src, preferred=False)) if f is not None]
    return Finding(RULE.code, src.site(h.node), message, C.related(h, interp, src),
                   tuple(fixes))


def _recompute_in_loop(h: Hazard, interp: Interpreter, src: Source) -> Fix | None:
    """Move (or copy) the statements that built the reused value to the top of the loop
    body: all those before the loop that built the freed part of the backward's root, in
    their order (``logits = xenc @ W``, ``counts = logits.exp()``, ... ``loss = ...``),
    when the backward runs in the loop's own frame; else the one-line assignment in the
    loop's frame, before the loop, that holds it."""
    loop = h.loop
    if loop.body is None:
        return None
    lspan = src.span(loop.node)
    hit = set(h.segs)
    if h.frames[-1][0] == loop.frame:
        found = C.recompute_chain(h, src, hit)
        moved = [st for st in found[0] if src.span(st).start < lspan.start] if found else []
        if moved and not _read_by_header(moved, loop, src):
            edits = [src.insert_line_before(loop.body, *(src.statement_code(st) for st in moved))]
            for st in moved:
                if not any(_used_outside(n, st, loop, src, h) for n in C.target_names(st)):
                    edits.insert(0, src.delete_lines(st))
            shown = ", ".join(src.code(st.body[0].targets[0].target, 30) for st in moved)
            return Fix(Message(N_("Compute `{name}` inside the loop (a new graph each "
                                  "iteration)"), {"name": shown}), tuple(edits), preferred=True)
        if found is not None:
            return None
    for key, b in sorted(h.env.items(), key=lambda kv: str(kv[0])):
        if key[0] not in (loop.frame, "G") or not (b.val.segs & hit):
            continue
        stmt = b.stmt
        if not C.one_line_assignment(stmt):
            continue
        if src.span(stmt).start >= lspan.start:
            continue
        if C.reads_freed(stmt.body[0].value, h, interp, loop.frame) or \
                not C.may_build_graph(stmt.body[0].value):
            continue  # (``feats = hook.features``: run in the loop, it builds nothing)
        name = key[1]
        if isinstance(loop.node, (cst.For, cst.While)) and \
                not C.name_index(loop.node.body, src).names.get(name):
            continue  # not read in the loop: computing it there changes nothing
        target, where = loop, loop.body
        if _read_by_header([stmt], loop, src):
            outer = _enclosing_loop(h, loop)
            if outer is None or src.span(stmt).start >= src.span(outer.node).start:
                continue
            target, where = outer, outer.body
        code = src.statement_code(stmt)
        edits = [src.insert_line_before(where, code)]
        if not _used_outside(name, stmt, target, src, h):
            edits.insert(0, src.delete_lines(stmt))
        shown = src.code(stmt.body[0].targets[0].target, 40)
        return Fix(Message(N_("Compute `{name}` inside the loop (a new graph each iteration)"),
                           {"name": shown}), tuple(edits), preferred=True)
    return None


def _detach_where_built(h: Hazard, interp: Interpreter, src: Source) -> Fix | None:
    """A value built once that no optimizer trains through (a fixed preprocessing by a
    module whose parameters no optimizer was given): detach it where it is built, in a
    function still running at the backward (never inside a callee such as a forward that
    the training path also runs). Every optimizer keeps its gradients: none of them
    trains what the cut leaves out."""
    seg = C.graph_seg(h, interp)
    stmt = seg.stmt
    if not C.one_line_assignment(stmt) or seg.frame not in {fid for fid, _, _ in h.frames}:
        return None
    assign = stmt.body[0]
    if len(assign.targets) != 1 or not isinstance(assign.targets[0].target,
                                                  (cst.Name, cst.Attribute)):
        return None
    value = assign.value
    vspan, sspan = src.span(value), src.span(seg.node)
    if not (vspan.start <= sspan.start and sspan.end <= vspan.end):
        return None
    key = (seg.frame, assign.targets[0].target.value) \
        if isinstance(assign.targets[0].target, cst.Name) else None
    b = h.env.get(key) if key is not None else None
    val = b.val if b is not None else None
    if val is None or val.kind != "tensor" or not C.trained_by_no_optimizer(val.segs, interp):
        return None
    atom = isinstance(value, (cst.Call, cst.Name, cst.Attribute, cst.Subscript))
    edits = (src.append_to(value, ".detach()"),) if atom else \
        (src.prepend_to(value, "("), src.append_to(value, ").detach()"))
    name = src.code(assign.targets[0].target, 40)
    return Fix(Message(N_("Detach `{name}` where it is built on line {line}: no optimizer "
                          "trains what computed it, and each iteration's backward then "
                          "stops there"), {"name": name, "line": src.line_ref(stmt)}),
               edits, preferred=True)


def _read_by_header(stmts, loop, src: Source) -> bool:
    """Whether the loop's header (its iterable) reads a name one of ``stmts`` binds
    (``for name, value in losses.items()``: ``losses`` cannot be computed inside)."""
    return any(C.name_index(e, src).names.get(n)
               for st in stmts for n in C.target_names(st) for e in loop.header)


def _enclosing_loop(h: Hazard, loop):
    """The loop around ``loop`` in the same frame, if the hazard's context has one."""
    outer = [ctx for ctx in h.loops[: h.loops.index(loop)] if ctx.frame == loop.frame]
    return outer[-1] if outer else None


def _used_outside(name: str, stmt, loop, src: Source, h: Hazard) -> bool:
    """Whether ``name`` is read in its function other than inside ``loop``."""
    func = next((f for fid, _, f in h.frames if fid == loop.frame), None)
    scope = func if func is not None else src.module
    lspan = src.span(loop.node)
    sspan = src.span(stmt)
    for n in C.name_index(scope, src).names.get(name, ()):
        s = src.span(n)
        if (lspan.start <= s.start and s.end <= lspan.end) or \
                (sspan.start <= s.start and s.end <= sspan.end):
            continue
        return True
    return False
