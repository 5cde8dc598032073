"""GG101 backward-through-freed-graph: a backward walks a graph an earlier backward freed.

PyTorch frees the saved tensors of every node a backward walks unless
``retain_graph=True`` (torch.Tensor.backward docs); walking such a node again raises
``RuntimeError: Trying to backward through the graph a second time``.
"""

from __future__ import annotations

import libcst as cst

from gradguard.analysis.interp import Hazard, Interpreter
from gradguard.analysis.model import Edit, Finding, Fix, Message
from gradguard.analysis.source import Source
from gradguard.rules import N_, Rule
from gradguard.rules import common as C

RULE = Rule(
    code="GG101",
    name="backward-through-freed-graph",
    severity="error",
    summary=N_("Backward through a graph that an earlier backward already freed"),
    docs=N_("""## What it does
Finds a `backward()` or `torch.autograd.grad()` that walks part of an autograd graph
that an earlier backward already walked without `retain_graph=True`: the same loss
backpropagated twice, two losses that share a sub-expression, or a GAN whose
`fake = G(z)` feeds the discriminator loss (backpropagated) and then the generator loss.

## Why is this bad
A backward frees the saved tensors of every node it walks. The second walk raises
`RuntimeError: Trying to backward through the graph a second time`.

## Example
```python
fake = netG(z)
d_loss = bce(netD(fake), zeros)
d_loss.backward()
g_loss = bce(netD(fake), ones)
g_loss.backward()  # walks netG's freed graph
```

## Use instead
Detach what the first loss should not train through, or recompute:
```python
fake = netG(z)
d_loss = bce(netD(fake.detach()), zeros)
d_loss.backward()
g_loss = bce(netD(fake), ones)
g_loss.backward()
```
When both backwards are meant to run through the same graph, pass
`retain_graph=True` to the first one (its saved tensors then stay in memory until the
second backward).
"""),
    valid=(
        """import torch
net = torch.nn.Linear(2, 1)
x = torch.randn(4, 2)
loss = net(x).sum()
loss.backward(retain_graph=True)
loss.backward()
""",
        """import torch
netG, netD = torch.nn.Linear(2, 2), torch.nn.Linear(2, 1)
fake = netG(torch.randn(4, 2))
d_loss = netD(fake.detach()).mean()
d_loss.backward()
g_loss = -netD(fake).mean()
g_loss.backward()
""",
    ),
    invalid=(
        """import torch
net = torch.nn.Linear(2, 1)
x = torch.randn(4, 2)
loss = net(x).sum()
loss.backward()
loss.backward()
""",
        """import torch
netG, netD = torch.nn.Linear(2, 2), torch.nn.Linear(2, 1)
fake = netG(torch.randn(4, 2))
g_loss = -netD(fake).mean()
g_loss.backward()
d_loss = netD(fake).mean()
d_loss.backward()
""",
    ),
)


def build(h: Hazard, interp: Interpreter, src: Source) -> Finding:
    """The GG101 finding for a hazard of kind "same"."""
    label, built = C.graph_site(C.graph_seg(h, interp), src, h)
    args = {"tensor": C.tensor_name(h, src), "graph": label,
            "built_line": src.line_ref(built),
            "freed_line": C.free_line(h, interp, src)}
    message = Message(N_("`{tensor}` is backpropagated through the graph of `{graph}` (built on "
                         "line {built_line}), which the backward on line {freed_line} "
                         "already freed"), args)
    return Finding(RULE.code, src.site(h.node), message, C.related(h, interp, src),
                   _fixes(h, interp, src))


def _fixes(h: Hazard, interp: Interpreter, src: Source) -> tuple[Fix, ...]:
    fixes = []
    for make in (_drop_returned_backward, _one_backward_of_the_sum, C.detach_uses, _recompute,
                 _use_fresh_value):
        fix = make(h, interp, src)
        if fix is not None:
            fixes.append(fix)
            break
    stepped = h.steps > h.frees[0].steps and not C.steps_spare_graph(h, interp)
    retain = C.retain_fix(h, interp, src, preferred=not fixes and not stepped)
    if retain is not None:
        fixes.append(retain)
    return tuple(fixes)


def _drop_returned_backward(h: Hazard, interp: Interpreter, src: Source) -> Fix | None:
    """A function backprops a loss and returns it, and its caller backprops what it
    returned again (a trainer's ``compute_loss`` override that calls ``backward()``
    itself): the caller's backward runs through everything the first one did, with no
    optimizer step between, so removing the first keeps every gradient."""
    first = h.frees[0]
    if h.steps != first.steps or first.top is None or not first.stmts:
        return None
    done = {s for s, f in h.freed.items() if f is first}
    frame_id, stmt = first.stmts[-1]
    if not done or not done <= h.val_segs or frame_id in {f[0] for f in h.frames}:
        return None  # (the function that ran it has not returned)
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and
            isinstance(stmt.body[0], cst.Expr) and stmt.body[0].value is first.node):
        return None
    after = C.next_statement(first.top, stmt)
    ret = after.body[0] if isinstance(after, cst.SimpleStatementLine) and \
        len(after.body) == 1 else None
    recv = first.node.func.value if isinstance(first.node.func, cst.Attribute) else None
    if recv is None or not isinstance(ret, cst.Return) or ret.value is None or \
            src.code(ret.value) != src.code(recv):
        return None  # (not ``loss.backward()`` right before ``return loss``)
    return Fix(Message(N_("Remove the backward on line {line}: the caller backpropagates "
                          "the `{name}` this function returns"),
                       {"line": src.line_ref(stmt), "name": src.code(ret.value, 30)}),
               (src.delete_lines(stmt),), preferred=True)


def _one_backward_of_the_sum(h: Hazard, interp: Interpreter, src: Source) -> Fix | None:
    """Two losses backpropagated one right after the other, with no optimizer step
    between, the second through the graph the first freed (an actor's and a critic's loss
    of one network): one backward of their sum gives every parameter the same gradient
    (backward accumulates: the gradient of ``a + b`` is that of ``a`` plus that of
    ``b``) and walks the shared graph once."""
    first = h.frees[0]
    if h.steps != first.steps or first.top is None or not first.stmts or not h.frames:
        return None
    frame_id, stmt = first.stmts[-1]
    here_id, here, _ = h.frames[-1]
    if here_id != frame_id or C.next_statement(first.top, stmt) is not here:
        return None
    a, b = _plain_backward(stmt, first.node), _plain_backward(here, h.node)
    if a is None or b is None or src.span(stmt).path is not None or \
            src.code(a, 200) == src.code(b, 200):
        return None  # (one loss backpropagated twice: its sum with itself is no fix)
    total = f"({src.module.code_for_node(a)} + {src.module.code_for_node(b)})"
    return Fix(Message(N_("Backpropagate `{first} + {second}` once, instead of each on its "
                          "own: the same gradients, and the shared graph is walked once"),
                       {"first": src.code(a, 30), "second": src.code(b, 30)}),
               (Edit(src.span(first.node.func.value), total),
                src.delete_lines(here)), preferred=True)


def _plain_backward(stmt, call) -> cst.BaseExpression | None:
    """``x`` of a statement that is only ``x.backward()`` (no argument), this ``call``."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and
            isinstance(stmt.body[0], cst.Expr) and stmt.body[0].value is call):
        return None
    if not isinstance(call, cst.Call) or call.args or not isinstance(call.func, cst.Attribute) \
            or call.func.attr.value != "backward" or "\n" in \
            cst.Module([]).code_for_node(call.func.value):
        return None
    return call.func.value


def _recompute(h: Hazard, interp: Interpreter, src: Source) -> Fix | None:
    """Recompute, just before the backward, what it backpropagates (a fresh graph): its
    own statement when that reads nothing whose graph is freed; when an optimizer step ran
    between the two backwards (so keeping the graph would only trade the error for
    "modified by an inplace operation"), the chain of assignments that built the freed
    part too (``logits, values = net(states)`` and ``value_loss = ...`` again after the
    actor's step changed the trunk they share)."""
    if h.steps > h.frees[0].steps:
        found = C.recompute_chain(h, src, set(h.segs))
        if found is None:
            return None
        chain = found[0]
    else:
        if not isinstance(h.root, cst.Name):
            return None
        frame_id = h.frames[-1][0]
        binding = h.env.get((frame_id, h.root.value)) or h.env.get(("G", h.root.value))
        stmt = binding.stmt if binding is not None else None
        if not C.one_line_assignment(stmt) or \
                C.reads_freed(stmt.body[0].value, h, interp, frame_id):
            return None
        chain = [stmt]
    here = h.frames[-1][1]
    if here is None or here in chain:
        return None
    names = ", ".join(src.code(s.body[0].targets[0].target, 30) for s in chain)
    return Fix(Message(N_("Recompute `{name}` before this backward (a fresh graph)"),
                       {"name": names}),
               (src.insert_line_before(here, *(src.statement_code(s) for s in chain)),),
               preferred=True)


def _use_fresh_value(h: Hazard, interp: Interpreter, src: Source) -> Fix | None:
    """A stale tensor is passed where a recomputation of it, assigned just before and
    never used, was meant (``new_logits = model(x)`` computed, ``logits`` passed)."""
    hit = set(h.segs)
    for node, segs, frame_id in interp.stale_uses:
        if not segs & hit:
            continue
        labels = {interp.segs[s].label for s in segs & hit}
        func = next((f for fid, _, f in h.frames if fid == frame_id), None)
        if func is None:
            continue
        for key, b in sorted(h.env.items(), key=lambda kv: str(kv[0])):
            if key[0] != frame_id or key[1] == node.value or not b.val.segs or \
                    b.val.segs & set(h.freed) or not isinstance(b.stmt, cst.SimpleStatementLine):
                continue
            if not labels & {interp.segs[s].label for s in b.val.segs}:
                continue
            if len(C.name_index(func, src).names.get(key[1], ())) != 1:
                continue  # it is used somewhere: not a forgotten recomputation
            return Fix(Message(N_("Use `{fresh}` (computed on line {line} and never used) "
                                  "instead of the stale `{stale}`"),
                               {"fresh": key[1], "stale": node.value,
                                "line": src.line_ref(b.stmt)}),
                       (Edit(src.span(node), key[1]),), preferred=True)
    return None
