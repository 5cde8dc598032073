"""GG403 parameters-never-updated: a backward of a training loop gives a module's parameters
gradients, but no optimizer updates them: the module is missing from every optimizer (a
metric-learning head built beside the model, layers kept in a plain Python list, which
``parameters()`` does not see). Nothing raises; the module stays as it was initialised.

A module frozen when its optimizer took the parameters that required grad, and
unfrozen later, is reported at that filter.

Reported only on what the engine knows: the module is built in the analysed code with
fresh parameters (not a ``copy.deepcopy`` of another, not loaded with ``load_state_dict``,
nothing else writes its parameters), it is never handed to code the engine does not
follow, and every optimizer of the file is given parameters the engine can name. Reported
at the optimizer whose step follows that backward, where the fix goes.
"""

from __future__ import annotations

import libcst as cst

from gradguard.analysis.events import Step
from gradguard.analysis.frames import walk_scope
from gradguard.analysis.interp import Interpreter
from gradguard.analysis.model import Edit, Finding, Fix, Message, Related
from gradguard.analysis.source import Source
from gradguard.analysis.values import EMPTY, list_elements
from gradguard.rules import N_, Rule
from gradguard.rules.common import module_name, once_per_run, path_to

RULE = Rule(
    code="GG403",
    name="parameters-never-updated",
    severity="warning",
    summary=N_("A module the loss trains is in no optimizer"),
    docs=N_("""## What it does
Finds a module whose parameters a training loop's backward gives gradients, while no
optimizer updates them: it was left out of every optimizer's parameters. Classic
shapes: an ArcFace or classifier head built beside the model and trained by the loss,
with the optimizer given only `model.parameters()`; layers kept in a plain Python list
(not an `nn.ModuleList`), which `parameters()` does not see; an optimizer built from the
parameters that require grad (`[p for p in model.parameters() if p.requires_grad]`) while
part of the model is frozen, that part unfrozen later: the optimizer never holds it
(give it every parameter: it skips those with no gradient).

## Why is this bad
Nothing raises. The gradients are computed and never used: the module keeps its random
initial weights, and the model trains around them.

## Example
```python
model, head = Embedder(), ArcMarginProduct(32, n_classes)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)   # head is missing
for x, y in loader:
    loss = criterion(head(model(x), y), y)
    optimizer.zero_grad(); loss.backward(); optimizer.step()
```

## Use instead
Give the optimizer every module the loss should train:
```python
optimizer = torch.optim.SGD([*model.parameters(), *head.parameters()], lr=0.1)
```
"""),
    valid=(
        """import torch
model = torch.nn.Linear(4, 4)
head = torch.nn.Linear(4, 2)
opt = torch.optim.SGD([*model.parameters(), *head.parameters()], lr=0.1)
for _ in range(2):
    loss = head(model(torch.randn(3, 4))).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
""",
    ),
    invalid=(
        """import torch
model = torch.nn.Linear(4, 4)
head = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(2):
    loss = head(model(torch.randn(3, 4))).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
""",
    ),
)


@once_per_run
def unoptimized(interp: Interpreter) -> list:
    """``(step, backward, modules)``: for a step in a loop, a backward of the same loop pass
    before it whose graph reaches the parameters of modules built in the analysed code
    that no optimizer updates (the outermost such module of each), each module once."""
    steps = interp.step_recs
    if not steps or not interp.backwards or any(
            st.trained is None or not st.trained.pure or st.trained in interp.grown
            for st in steps):
        return []  # (an optimizer given parameters the engine cannot name may hold them)
    trained = set(interp.optimizers) | {st.trained for st in steps}
    optimized: set = set()
    for t in trained:
        optimized |= set(t.mods) | (interp._descendants(t.refs) - t.left_frozen)
    # modules an optimizer left out for not requiring grad when it was built, that
    # require grad again later (unfrozen on some path: meant to be trained then)
    thawed = {r for t in trained for r in t.left_frozen if r in interp.unfrozen_at} - optimized
    # (parameters loaded, or written in a loop by something else than a step: a target
    # network's soft update)
    skip = optimized | interp.escaped | interp.frozen | (interp.maybe_frozen - thawed) | \
        interp.copies | interp.param_writes
    parents: dict = {}
    for parent, kids in interp.submodules.items():
        for k in kids:
            parents.setdefault(k, set()).add(parent)

    def outermost(r):
        seen = {r}
        while True:
            # (not up to a module that holds trained ones: the part left out is reported)
            up = [p for p in parents.get(r, ()) if p in interp.created and p not in skip and
                  p not in seen and not interp._descendants({p}) & optimized]
            if len(up) != 1:
                return r
            r = up[0]
            seen.add(r)

    # modules the user meant to be trained: held by a trained module in a plain list or
    # dict attribute (not registered: its parameters() does not see them), or, when
    # there is one optimizer, built in the scope that builds it and run on what the
    # trained modules compute
    held = {e.ref for key, b in interp.state.env.items()
            if key[0] == "@" and key[1] in optimized and b.val.kind == "container"
            for e in list_elements(b.val) or () if e.kind == "module" and isinstance(e.ref, tuple)}
    scopes = {key[0] for t in trained for _, key in t.keys} if len(trained) == 1 else set()

    def downstream(r) -> bool:
        # some call of it is run on what a trained module computed (``head(model(x))``):
        # it is part of the model being trained, not a network that makes its data
        return any(interp.reach_of(interp.module_inputs.get(m, EMPTY))[0] & optimized
                   for m in interp._descendants({r}))

    def between_trained(r) -> bool:
        # a part of a module built here that also holds trained modules, between them: run
        # on what one computes, and a trained module is run on what it computes (a model's
        # pooler left out of its parameter groups). Not one the training code puts in
        # evaluation mode (a backbone kept fixed for linear probing), nor a last stage (a
        # pretrained decoder an encoder is trained through, left out on purpose)
        training = interp.state.env.get(("@", r, "training"))
        if training is not None and training.val.ref is False:
            return False
        own = interp._descendants({r})
        return any(interp._descendants({a}) & optimized
                   for a in _ancestors(r, parents) if a in interp.created) and any(
            interp.reach_of(interp.module_inputs.get(m, EMPTY))[0] & own
            for m in optimized)

    def joined_later(r) -> bool:
        # put under one module with the trained ones only after their optimizers were
        # built (``ModelWithLoss(model, criterion)`` after ``Adam(model.parameters())``):
        # those optimizers were given whole models, not a part chosen out of this one
        joins = [a for a in _ancestors(r, parents)
                 if a in interp.created and interp._descendants({a}) & optimized]
        return bool(joins) and all(interp.created[a] > t.built for a in joins
                                   for t in trained)

    def meant(r) -> bool:
        frame = interp.module_names.get(r, (None, None))[1]
        return r in thawed or bool(held & ({r} | _ancestors(r, parents))) or \
            between_trained(r) or \
            (frame is not None and frame in scopes or joined_later(r)) and downstream(r)

    out, reported = [], set()
    for st in steps:
        p = st.stamp[-1] if st.stamp else None
        if p is None:
            continue  # (a step outside any loop trains nothing for long)
        for b in interp.backwards[:st.backs]:
            if b.wild or p not in b.stamp:
                continue
            left = {outermost(r) for r in b.reach if r in interp.created and r not in skip}
            left = {r for r in left if meant(r)}
            if any(interp._descendants({r}) & skip for r in left):
                continue  # (part of it is trained or written: on purpose, maybe)
            new = frozenset(left - reported)
            if new:
                reported |= new
                out.append((st, b, new))
    return out


def _ancestors(r, parents: dict) -> set:
    out, todo = set(), [r]
    while todo:
        for p in parents.get(todo.pop(), ()):
            if p not in out:
                out.add(p)
                todo.append(p)
    return out


def build_all(interp: Interpreter, src: Source) -> list[tuple[Finding, tuple]]:
    """The GG403 findings, each with its step's frames."""
    return [(_finding(interp, st, b, mods, src), st.frames)
            for st, b, mods in unoptimized(interp)]


def _finding(interp: Interpreter, st: Step, b, mods, src: Source) -> Finding:
    names = sorted({module_name(interp, r) for r in mods})
    shown = ", ".join(names)
    opt = src.code(st.optimizer, 30)
    if st.trained.filtered is not None and mods <= st.trained.left_frozen:
        return _thawed_finding(interp, st, b, mods, shown, opt, src)
    site = st.trained.site if st.trained.site is not None else st.node
    message = Message(N_("`{optimizer}` is not given the parameters of `{modules}`: the "
                         "backward on line {line} computes their gradients, but no "
                         "optimizer updates them, so `{modules}` keeps its initial weights"),
                      {"optimizer": opt, "modules": shown, "line": src.line_ref(b.node)})
    related = [Related(src.span(b.node), Message(
        N_("this backward gives `{modules}` gradients"), {"modules": shown}), backward=True),
        Related(src.span(st.node), Message(N_("`{optimizer}` steps only its own parameters "
                                              "here"), {"optimizer": opt}))]
    fix = _fix(site, names, src)
    return Finding(RULE.code, src.span(site), message, tuple(related),
                   (fix,) if fix is not None else ())


def _thawed_finding(interp: Interpreter, st: Step, b, mods, shown: str, opt: str,
                    src: Source) -> Finding:
    """The modules were frozen when the optimizer was built from the parameters that
    required grad then, and were unfrozen later: reported at that filter."""
    filtered = st.trained.filtered
    unfrozen = min((interp.unfrozen_at[r] for r in mods), key=lambda n: src.span(n).start)
    message = Message(N_("`{optimizer}` is given only the parameters that require grad "
                         "when it is built: `{modules}` was frozen then and requires grad "
                         "again from line {unfrozen}, so the backward on line {line} "
                         "computes its gradients, but no optimizer updates them"),
                      {"optimizer": opt, "modules": shown, "unfrozen": src.line_ref(unfrozen),
                       "line": src.line_ref(b.node)})
    related = (Related(src.span(unfrozen), Message(
        N_("`{modules}` requires grad again here"), {"modules": shown})),
        Related(src.span(b.node), Message(
            N_("this backward gives `{modules}` gradients"), {"modules": shown}), backward=True),
        Related(src.span(st.node), Message(N_("`{optimizer}` steps only its own parameters "
                                              "here"), {"optimizer": opt})))
    every = _unfiltered(filtered)
    fix = Fix(Message(N_("Give the optimizer every parameter: it skips those with no "
                         "gradient while they are frozen")),
              (Edit(src.span(filtered), every),), preferred=True) if every else None
    return Finding(RULE.code, src.span(filtered), message, related, (fix,) if fix else ())


def _unfiltered(filtered) -> str | None:
    """``filtered`` without its ``requires_grad`` test: ``[p for p in X if p.requires_grad]``
    -> ``list(X)``, the generator -> ``X``, ``filter(lambda p: p.requires_grad, X)`` -> ``X``;
    None when it does more than that test."""
    code = cst.Module([]).code_for_node
    if isinstance(filtered, cst.Call):
        return code(filtered.args[1].value)
    f = filtered.for_in
    if f.inner_for_in is not None or len(f.ifs) != 1 or \
            not isinstance(f.ifs[0].test, cst.Attribute) or \
            not isinstance(f.target, cst.Name) or not isinstance(filtered.elt, cst.Name) or \
            filtered.elt.value != f.target.value or \
            not isinstance(f.ifs[0].test.value, cst.Name) or \
            f.ifs[0].test.value.value != f.target.value:
        return None
    iterable = code(f.iter)
    return f"list({iterable})" if isinstance(filtered, cst.ListComp) else iterable


def _fix(site, names, src: Source) -> Fix | None:
    """Add the modules' parameters to the optimizer, when it is given one ``X.parameters()``
    and every module is named by a plain name bound before it in the same scope."""
    if not isinstance(site, cst.Call) or not site.args or site.args[0].keyword is not None or \
            site.args[0].star or not _is_parameters_call(site.args[0].value):
        return None
    path = path_to(src.module, site) or []
    scope = next((n for n in reversed(path) if isinstance(n, cst.FunctionDef)), src.module)
    line = src.span(site).start.line
    bound = {t.target.value for n in walk_scope(scope) if isinstance(n, cst.Assign) and
             src.span(n).end.line < line for t in n.targets if isinstance(t.target, cst.Name)}
    if not all(n in bound for n in names):
        return None
    first = site.args[0].value
    text = "[" + ", ".join([f"*{src.code(first, 200)}"] +
                           [f"*{n}.parameters()" for n in names]) + "]"
    return Fix(Message(N_("Give the optimizer the parameters of `{modules}` too"),
                       {"modules": ", ".join(names)}),
               (Edit(src.span(first), text),), preferred=True)


def _is_parameters_call(node) -> bool:
    return isinstance(node, cst.Call) and not node.args and \
        isinstance(node.func, cst.Attribute) and node.func.attr.value == "parameters"
