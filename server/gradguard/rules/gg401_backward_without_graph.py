"""GG401 backward-without-graph: ``backward()`` (or ``torch.autograd.grad``) of a tensor that
is known to have no graph: computed under ``no_grad``/``inference_mode``, detached, taken
out through ``.data``/``.item()``, or made only of tensors that do not require grad.

The autograd engine refuses a root without ``grad_fn`` that is no leaf requiring grad
(torch/csrc/autograd/engine.cpp, ``validate_outputs``; torch/autograd/__init__.py
``_make_grads``): "element 0 of tensors does not require grad and does not have a
grad_fn". The engine reports only values whose whole history it knows (unknown is quiet).
"""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m

from gradguard.analysis.events import NoGraph
from gradguard.analysis.model import Edit, Finding, Fix, Message, Pos, Related, Span
from gradguard.analysis.source import Source
from gradguard.rules import N_, Rule
from gradguard.rules.common import cut_removal

RULE = Rule(
    code="GG401",
    name="backward-without-graph",
    severity="error",
    summary=N_("backward() of a tensor that has no graph"),
    docs=N_("""## What it does
Finds a `backward()` (or `torch.autograd.grad`) of a tensor that cannot have a graph:
it was computed under `torch.no_grad()` / `torch.inference_mode()`, detached
(`.detach()`, `.data`), turned into a Python number (`.item()`, `float()`) and back into a
new tensor (`torch.tensor(...)`), or computed only from tensors none of which requires
grad.

## Why is this bad
Autograd has nothing to differentiate: the call raises
`RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn`.
Silencing it with `loss.requires_grad = True` makes the error go away and trains
nothing: the gradient stops at the loss.

## Example
```python
with torch.no_grad():
    out = model(x)
loss = criterion(out, y)
loss.backward()
```

## Use instead
Compute the loss with grad mode on, from the model's output itself:
```python
out = model(x)
loss = criterion(out, y)
loss.backward()
```
"""),
    valid=(
        """import torch
net = torch.nn.Linear(2, 1)
x = torch.randn(4, 2)
with torch.no_grad():
    ref = net(x)
loss = (net(x) - ref).pow(2).mean()
loss.backward()
""",
        """import torch
def step(batch):
    loss = (batch * 2).sum()  # batch may require grad: not known
    loss.backward()
""",
    ),
    invalid=(
        """import torch
net = torch.nn.Linear(2, 1)
x = torch.randn(4, 2)
with torch.no_grad():
    out = net(x)
loss = out.pow(2).mean()
loss.backward()
""",
        """import torch
net = torch.nn.Linear(2, 1)
loss = net(torch.randn(4, 2)).detach().mean()
loss.backward()
""",
        """import torch
net = torch.nn.Linear(2, 1)
loss = torch.tensor(net(torch.randn(4, 2)).mean().item())
loss.backward()
""",
    ),
)

_WHY = {
    "detach": N_("`{tensor}` has no graph: `{cut}` on line {cut_line} detached it, so this "
                 "backward raises \"element 0 of tensors does not require grad and does not "
                 "have a grad_fn\""),
    "data": N_("`{tensor}` has no graph: `{cut}` on line {cut_line} took it out of the graph, "
               "so this backward raises \"element 0 of tensors does not require grad and "
               "does not have a grad_fn\""),
    "item": N_("`{tensor}` has no graph: `{cut}` on line {cut_line} turned it into a Python "
               "number, so this backward raises \"element 0 of tensors does not require grad "
               "and does not have a grad_fn\""),
    "no_grad": N_("`{tensor}` has no graph: it was computed under `{cut}` (line {cut_line}), "
                  "so this backward raises \"element 0 of tensors does not require grad and "
                  "does not have a grad_fn\""),
    "factory": N_("`{tensor}` has no graph: `{cut}` on line {cut_line} makes a tensor that "
                  "does not require grad, and nothing on its way to this backward requires "
                  "grad, so it raises \"element 0 of tensors does not require grad and does "
                  "not have a grad_fn\""),
    "frozen": N_("`{tensor}` has no graph: `{cut}` on line {cut_line} runs a module none of "
                 "whose parameters requires grad on inputs that do not either, so this "
                 "backward raises \"element 0 of tensors does not require grad and does not "
                 "have a grad_fn\""),
    "frozen_param": N_("`{tensor}` has no graph: the parameters it is computed from were "
                       "made not to require grad (`{cut}`, line {cut_line}), so this backward "
                       "raises \"element 0 of tensors does not require grad and does not "
                       "have a grad_fn\""),
    "grad": N_("`{tensor}` has no graph: it was computed from the gradients `{cut}` on line "
               "{cut_line} returned without create_graph=True, which have none, so this "
               "backward raises \"element 0 of tensors does not require grad and does not "
               "have a grad_fn\""),
}

_WHERE = {
    "detach": N_("the graph is cut here"),
    "data": N_("the graph is cut here"),
    "item": N_("the graph is cut here"),
    "no_grad": N_("computed without grad here"),
    "factory": N_("this tensor does not require grad"),
    "frozen": N_("no parameter of this module requires grad"),
    "frozen_param": N_("these parameters stop requiring grad here"),
    "grad": N_("these gradients have no graph"),
}


def _cut_code(cut, src: Source) -> str:
    if cut.kind == "no_grad":
        node = cut.node
        if isinstance(node, cst.With):
            return src.code(node.items[0].item, 40)
        if isinstance(node, cst.FunctionDef):
            return f"@{src.code(node.decorators[0].decorator, 30)}" if node.decorators \
                else "no_grad"
    return src.code(cut.node, 50)


def _cut_site(cut):
    node = cut.node
    if isinstance(node, cst.With):
        return node.items[0]
    if isinstance(node, cst.FunctionDef) and node.decorators:
        return node.decorators[0]
    return node


def build(h: NoGraph, src: Source) -> Finding:
    """The GG401 finding: at the backward, naming why its root has no graph."""
    cuts = h.cuts
    # a cut in the code (detach, no_grad...) explains more than a tensor made without grad
    main = next((c for c in cuts if c.kind != "factory"), cuts[0] if cuts else None)
    tensor = src.code(h.root, 40) if h.root is not None else "loss"
    if main is None:
        message = Message(N_("`{tensor}` has no graph: nothing it is computed from requires "
                             "grad, so this backward raises \"element 0 of tensors does not "
                             "require grad and does not have a grad_fn\""), {"tensor": tensor})
        return Finding(RULE.code, src.site(h.node), message, (), ())
    args = {"tensor": tensor, "cut": _cut_code(main, src),
            "cut_line": src.line_ref(_cut_site(main))}
    message = Message(_WHY[main.kind], args)
    related = tuple(Related(src.span(_cut_site(c)), Message(_WHERE[c.kind], {}))
                    for c in cuts[:3])
    flags = [_plain_flag(stmt) for stmt in h.plain_flags]
    if flags and None not in flags:
        related += tuple(Related(src.span(a), Message(N_(
            "this sets a plain attribute of the module, not its parameters' "
            "requires_grad"), {})) for a in flags)
        return Finding(RULE.code, src.site(h.node), message, related,
                       (_unfreeze_fix(flags, src),))
    fix = _fix(h, src)
    return Finding(RULE.code, src.site(h.node), message, related, (fix,) if fix else ())


def _plain_flag(stmt) -> cst.Assign | None:
    """The ``net.head.requires_grad = True`` statement ``stmt`` holds."""
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and \
        len(stmt.body) == 1 else None
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and \
            isinstance(small.targets[0].target, cst.Attribute) and \
            small.targets[0].target.attr.value == "requires_grad":
        return small
    return None


def _unfreeze_fix(assigns, src: Source) -> Fix:
    """``net.head.requires_grad = True`` -> ``net.head.requires_grad_(True)``:
    nn.Module.requires_grad_ sets the flag of each of the module's parameters."""
    edits = tuple(Edit(src.span(a), f"{src.code(a.targets[0].target.value, 200)}"
                                    f".requires_grad_(True)") for a in assigns)
    return Fix(Message(N_("Use `{code}` to make the module's parameters require grad"),
                       {"code": f"{src.code(assigns[0].targets[0].target.value, 60)}"
                                f".requires_grad_(True)"}), edits, preferred=True)


def _fix(h: NoGraph, src: Source) -> Fix | None:
    """The preferred fix, only where it is certain: the one cut on the way is a
    ``.detach()``/``.data`` of a value that had a graph (remove it), or the one
    ``no_grad`` block every statement of which builds this backward's root (take them
    out of it)."""
    # the tensors that never had a graph (inputs, targets) are not what cut this one
    cuts = [c for c in h.cuts if c.had_graph or c.kind == "no_grad"]
    if len(cuts) != 1:
        return None
    cut = cuts[0]
    if cut.kind in ("detach", "data") and cut.had_graph:
        edit = cut_removal(cut.node, src)
        if edit is None:
            return None
        return Fix(Message(N_("Remove the cut `{code}` so that the loss keeps its graph"),
                           {"code": src.code(cut.node, 40)}), (edit,), preferred=True)
    if cut.kind == "no_grad" and isinstance(cut.node, cst.With):
        return _leave_no_grad(h, cut.node, src)
    return None


def _leave_no_grad(h: NoGraph, block: cst.With, src: Source) -> Fix | None:
    """Dedent the body of a one-item ``with torch.no_grad():`` block (removing the
    ``with``) when every statement of it is an assignment the backward's root is built
    from (so nothing meant to stay without grad is in it) and the backward is outside."""
    body = block.body
    if len(block.items) != 1 or not isinstance(body, cst.IndentedBlock) or not body.body:
        return None
    stmts = list(body.body)
    if not all(isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and
               isinstance(s.body[0], cst.Assign) for s in stmts):
        return None
    wspan, bspan = src.span(block), src.span(h.inner)
    if wspan.path is not None or wspan.start <= bspan.start <= wspan.end or h.root is None:
        return None
    frame_id = h.frames[-1][0] if h.frames else "G"
    used, todo, seen = set(), [h.root], set()
    while todo:
        expr = todo.pop()
        for name in [expr] if isinstance(expr, cst.Name) else m.findall(expr, m.Name()):
            if name.value in seen:
                continue
            seen.add(name.value)
            b = h.env.get((frame_id, name.value)) or h.env.get(("G", name.value))
            if b is None or not isinstance(b.stmt, cst.SimpleStatementLine):
                continue
            if b.stmt in stmts:
                used.add(id(b.stmt))
            small = b.stmt.body[0]
            if isinstance(small, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and \
                    small.value is not None:
                todo.append(small.value)
    if any(id(s) not in used for s in stmts):
        return None
    first = src.span(block).start.line + 1
    last = src.span(block).end.line
    head = src.span(block).start.line
    outer = src.indent_of(block)
    inner = src.indent_of(stmts[0])
    lines = []
    for n in range(first, last + 1):
        line = src.line(n)
        if line.strip() and not line.startswith(inner):
            return None
        lines.append(outer + line[len(inner):] if line.strip() else line)
    text = src._newline_of(None).join(lines)
    span = Span(Pos(head, 0), Pos(last, len(src.line(last))))
    return Fix(Message(N_("Compute `{tensor}` with grad enabled: take these lines out of "
                          "the `no_grad` block"), {"tensor": src.code(h.root, 40)}),
               (Edit(span, text),), preferred=True)
