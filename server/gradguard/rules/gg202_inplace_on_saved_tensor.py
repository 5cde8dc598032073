"""GG202 inplace-on-saved-tensor: an in-place operation changes a tensor that an earlier
operation of the same graph saved for backward.

``exp``, ``sigmoid``, ``tanh``, ``softmax`` save their output; ``mul``, ``matmul``,
``div``, ``pow``, ``norm`` and module calls save their inputs; ``add``, ``sub``, ``view``
save no tensor (PyTorch's tools/autograd/derivatives.yaml). Backward then fails its
version check (torch/csrc/autograd/saved_variable.cpp).
"""

from __future__ import annotations

import libcst as cst

from gradguard.analysis import torchdb
from gradguard.analysis.interp import InplaceHazard, Interpreter
from gradguard.analysis.model import Edit, Finding, Fix, Message, Related
from gradguard.analysis.source import Source
from gradguard.rules import N_, Rule

RULE = Rule(
    code="GG202",
    name="inplace-on-saved-tensor",
    severity="error",
    summary=N_("An in-place operation changes a tensor that autograd saved for backward"),
    docs=N_("""## What it does
Finds an in-place operation (`x += ...`, `x /= ...`, `x.mul_()`, `x[idx] = ...`,
`relu(x, inplace=True)`) on a tensor that an earlier operation of the same graph saved
for its backward, before a backward runs through that graph. In-place edits nobody saved (a
residual `x += shortcut` after a linear layer) are fine and not reported.

## Why is this bad
The backward of the earlier operation needs the tensor as it was; autograd notices the
change and raises `RuntimeError: one of the variables needed for gradient computation
has been modified by an inplace operation`.

## Example
```python
z = projector(h)
z /= z.norm(dim=1, keepdim=True)   # norm saved z
```

## Use instead
The out-of-place form, or a `.clone()` before the edit:
```python
z = projector(h)
z = z / z.norm(dim=1, keepdim=True)
```
"""),
    valid=(
        """import torch
lin = torch.nn.Linear(3, 3)
x = lin(torch.randn(2, 3))
x += 1.0
x.sum().backward()
""",
    ),
    invalid=(
        """import torch
lin = torch.nn.Linear(3, 3)
z = lin(torch.randn(2, 3))
n = z.norm(dim=1, keepdim=True)
z /= n
z.sum().backward()
""",
    ),
)


def build(h: InplaceHazard, interp: Interpreter, src: Source) -> Finding:
    """The GG202 finding: at the in-place operation."""
    node = h.bump[0]
    if id(node) in interp.self_changes:
        return _renormalised(h, node, src)
    ctor = interp.inplace_modules.get(id(node), False)
    if ctor and id(node) in interp.container_calls:
        return _in_container(h, interp.inplace_modules.get((id(node), h.store), ctor), node,
                             interp, src)
    name = src.code(node.args[0].value, 40) if ctor is not False and node.args else \
        _target_name(node, src)
    saver = h.seg.node
    args = {"name": name, "op": src.code(saver, 40), "saved_line": src.line_ref(saver)}
    message = Message(N_("In-place change of `{name}`, which `{op}` (line {saved_line}) "
                         "saved for backward"), args)
    related = (Related(src.span(saver), Message(N_("`{name}` was saved for backward here"),
                                                {"name": name})),)
    if h.node is not node:
        related += (Related(src.span(h.node), Message(N_("this backward needs it"), {}), backward=True),)
    fix = _module_fix(ctor, src) if ctor is not False else _fix(node, h, src)
    if fix is not None and ctor is False:
        fix = _with_siblings(fix, h, interp, src)
    return Finding(RULE.code, src.site(node), message, related, (fix,) if fix else ())


def _renormalised(h: InplaceHazard, node, src: Source) -> Finding:
    """A module whose call changes its own weight in place (``nn.Embedding(max_norm=...)``
    renormalises the rows it looks up), called after an op saved that weight. torch's
    documentation of nn.Embedding gives the fix: clone the weight where it is used."""
    module = src.code(node.func, 40)
    saver = h.seg.node
    message = Message(N_("`{module}` renormalises its weight in place when called (its "
                         "max_norm), and `{op}` (line {saved_line}) saved that weight for "
                         "backward"),
                      {"module": module, "op": src.code(saver, 40),
                       "saved_line": src.line_ref(saver)})
    related = [Related(src.span(saver), Message(N_("`{name}` was saved for backward here"),
                                                {"name": f"{module}.weight"}))]
    if h.node is not node:
        related.append(Related(src.span(h.node), Message(N_("this backward needs it"), {}),
                               backward=True))
    operand = next((a.value for a in getattr(saver, "args", ())
                    if src.code(a.value, 80) == f"{module}.weight"), None)
    fix = Fix(Message(N_("Clone `{name}` where `{op}` saves it"),
                      {"name": f"{module}.weight", "op": src.code(saver, 40)}),
              (Edit(src.span(operand), f"{module}.weight.clone()"),), preferred=True) \
        if operand is not None else None
    return Finding(RULE.code, src.site(node), message, tuple(related), (fix,) if fix else ())


def _in_container(h: InplaceHazard, ctor, node, interp: Interpreter,
                  src: Source) -> Finding:
    """An in-place module run by an ``nn.Sequential`` on the output of the layer before
    it, which that layer saved (``nn.ReLU(), nn.Dropout(p, inplace=True)``): reported
    where the module is built (its call is the container's), fixed there, with every
    other such module that call runs (the backward fails on whichever is left)."""
    message = Message(N_("`{module}` runs inside `{container}` and changes in place the "
                         "output of the layer before it, which that layer saved for "
                         "backward"),
                      {"module": src.code(ctor, 40), "container": src.code(node, 40)})
    related = (Related(src.span(node), Message(N_("it happens here"), {})),)
    if h.node is not node:
        related += (Related(src.span(h.node), Message(N_("this backward needs it"), {}), backward=True),)
    others = [interp.inplace_modules.get((id(node), o.store)) for o in interp.inplace
              if o.bump[0] is node]
    fix = _module_fix(ctor, src, [c for c in dict.fromkeys(others) if c is not ctor])
    return Finding(RULE.code, src.span(ctor), message, related, (fix,) if fix else ())


def _bump_frame(h: InplaceHazard):
    return next((fid for fid, stmt in reversed(h.bump[1]) if stmt is not None), None)


def _with_siblings(fix: Fix, h: InplaceHazard, interp: Interpreter, src: Source) -> Fix:
    """The fix, extended to the other in-place changes of saved tensors made in the same
    call of the same function (``x /= norm(x)`` twice, a key cache and a value cache
    written one after the other): undoing one alone leaves the backward failing on the
    next. Unchanged when one of them has no fix of its own."""
    frame = _bump_frame(h)
    nodes = {id(h.bump[0])}
    others = []
    for o in interp.inplace:
        if o.kind != "tensor" or id(o.bump[0]) in nodes or frame is None or \
                _bump_frame(o) != frame or interp.inplace_modules.get(id(o.bump[0]), False) \
                is not False:
            continue
        nodes.add(id(o.bump[0]))
        extra = _fix(o.bump[0], o, src)
        if extra is None:
            return fix
        others.append(o.bump[0])
    if not others:
        return fix
    edits = list(fix.edits)
    for n in others:
        o = next(x for x in interp.inplace if x.bump[0] is n)
        edits.extend(_fix(n, o, src).edits)
    order = sorted([h.bump[0]] + others,
                   key=lambda n: (src.span(n).path or "", src.span(n).start))
    names = ", ".join(dict.fromkeys(_target_name(n, src) for n in order))
    return Fix(Message(N_("Stop changing `{names}` in place where this backward needs them"),
                       {"names": names}),
               tuple(edits), preferred=True)


def _module_fix(ctor, src: Source, others=()) -> Fix | None:
    """``nn.ReLU(inplace=True)`` applied to a saved tensor: build it (and ``others``, the
    constructors of the same mistake the same call runs) with inplace=False."""
    if ctor is None or None in others:
        return None
    if isinstance(ctor, cst.Assign):  # ``m.inplace = True`` after it was built
        return Fix(Message(N_("Set `{flag}` to False"),
                           {"flag": src.code(ctor.targets[0].target, 40)}),
                   tuple(_not_in_place(c, src) for c in (ctor, *others)), preferred=True)
    return Fix(Message(N_("Build `{module}` with inplace=False"),
                       {"module": src.code(ctor.func, 40)}),
               tuple(_not_in_place(c, src) for c in (ctor, *others)), preferred=True)


def _not_in_place(ctor, src: Source) -> Edit:
    """The edit that builds ``ctor``'s module with inplace=False (or, for ``m.inplace =
    True`` after it was built, sets the flag to False)."""
    if isinstance(ctor, cst.Assign):
        return Edit(src.span(ctor.value), "False")
    for arg in ctor.args:
        if arg.keyword is None and isinstance(arg.value, cst.Name) and arg.value.value == "True":
            return Edit(src.span(arg.value), "False")
    return src.add_keyword(ctor, "inplace", "False")


def _target_name(node, src: Source) -> str:
    if isinstance(node, cst.AugAssign):
        return src.code(node.target, 40)
    if isinstance(node, cst.Subscript):
        return src.code(node.value, 40)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        return src.code(node.func.value, 40)
    if isinstance(node, cst.Call) and node.args:
        return src.code(node.args[0].value, 40)
    return src.code(node, 40)


def _fix(node, h: InplaceHazard, src: Source) -> Fix | None:
    if isinstance(node, cst.AugAssign):
        target = src.code(node.target, 200)
        op = src.module.code_for_node(node.operator).strip().rstrip("=")
        value = src.module.code_for_node(node.value)
        if not isinstance(node.value, (cst.Name, cst.Attribute, cst.Call, cst.Subscript,
                                       cst.Integer, cst.Float)):
            value = f"({value})"
        return Fix(Message(N_("Use the out-of-place form: `{code}`"),
                           {"code": f"{target} = {target} {op} {value}"}),
                   (Edit(src.span(node), f"{target} = {target} {op} {value}"),), preferred=True)
    if isinstance(node, cst.Subscript):
        target = src.code(node.value, 200)
        stmt = next((s for _, s in reversed(h.bump[1]) if s is not None), None)
        if stmt is None:
            return None
        saved_arg = _saved_argument(h.seg.node, node.value, stmt, src)
        if saved_arg is not None:
            code = src.code(saved_arg, 200)
            op = h.seg.node.func if isinstance(h.seg.node, cst.Call) else h.seg.node
            return Fix(Message(N_("Clone `{name}` where `{op}` saves it"),
                               {"name": code, "op": src.code(op, 40)}),
                       (Edit(src.span(saved_arg), f"{code}.clone()"),), preferred=True)
        if _tensor_element(node.value, h):
            return None  # (``T[b] = T[b].clone()`` would change ``T`` in place itself)
        return _clone_before(target, stmt, src)
    if isinstance(node, cst.Call):
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == "inplace":
                return Fix(Message(N_("Use inplace=False"), {}),
                           (src.add_keyword(node, "inplace", "False"),), preferred=True)
        if isinstance(node.func, cst.Attribute) and isinstance(
                node.func.value, (cst.Name, cst.Attribute)):
            stmt = next((s for _, s in reversed(h.bump[1]) if s is not None), None)
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) else None
            if isinstance(small, cst.Expr) and small.value is node:
                target = src.code(node.func.value, 200)
                out_of_place = node.func.attr.value[:-1]
                if not torchdb.is_method(out_of_place):
                    # ``x.fill_diagonal_(0)``, ``x.copy_(y)``: no Tensor method without the
                    # underscore; the change goes to a copy of its own
                    return _clone_before(target, stmt, src)
                return Fix(Message(N_("Use the out-of-place form: `{code}`"),
                                   {"code": f"{target} = {target}.{out_of_place}(...)"}),
                           (src.prepend_to(node, f"{target} = "),
                            Edit(src.span(node.func.attr), out_of_place)), preferred=True)
    return None


def _clone_before(target: str, stmt, src: Source) -> Fix:
    """Rebind ``target`` to a clone of itself just before ``stmt`` changes it in place: the
    tensor an op saved stays as it was."""
    return Fix(Message(N_("Clone `{name}` before changing it in place"), {"name": target}),
               (src.insert_line_before(stmt, f"{target} = {target}.clone()"),),
               preferred=True)


def _tensor_element(target, h: InplaceHazard) -> bool:
    """Whether ``target`` is an element of a tensor (``T[b]``: rebinding it is an in-place
    change of ``T``), not of a dict or list (``scores["obj"]``) nor a name."""
    base = target
    while isinstance(base, cst.Subscript):
        base = base.value
    if base is target or not isinstance(base, cst.Name):
        return False
    b = h.env.get((_bump_frame(h), base.value)) or h.env.get(("G", base.value))
    return b is None or b.val.kind in ("tensor", "unknown")


def _saved_argument(saver, target, stmt, src: Source):
    """The operand of ``saver`` that reads the tensor ``target`` (``states[:, i]`` of
    ``cell(x[:, i], states[:, i])``, ``f[i - 1]`` of ``f[i - 1] * w``), when ``saver`` is
    in the statement ``stmt`` that then changes ``target`` in place (``states[:, i + 1] =
    cell(...)``, ``f[i] = f[i - 1] * w + b``): a clone before the statement would be saved
    and changed all the same, a clone of the operand is saved and never changed, and
    passes the gradient on to ``target``."""
    if not isinstance(target, cst.Name):
        return None
    if isinstance(saver, cst.Call):
        operands = [arg.value for arg in saver.args]
    elif isinstance(saver, cst.BinaryOperation):
        operands = [saver.left, saver.right]
    else:
        return None
    inside, span = src.span(stmt), src.span(saver)
    if not (inside.start <= span.start and span.end <= inside.end):
        return None
    for value in operands:
        base = value
        while isinstance(base, (cst.Subscript, cst.Attribute)):
            base = base.value
        if isinstance(base, cst.Name) and base.value == target.value and \
                isinstance(value, (cst.Name, cst.Subscript, cst.Attribute)):
            return value
    return None
