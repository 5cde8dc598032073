"""GG402 parameters-never-receive-gradient: an optimizer steps the parameters of modules that
no backward of the loop reaches, because every path from them to a backpropagated loss is cut
(a GAN's fake detached in the generator loss too, the generator's forward under
``no_grad``). Nothing raises: their ``.grad`` stays None, ``step()`` skips them
(torch/optim/optimizer.py: parameters whose grad is None are not updated) and that network
does not train.

Reported only on what the engine knows: the optimizer is given exactly some modules'
``parameters()``, those modules are built in the analysed code and never handed to code the
engine does not follow, and every backward of the loop has a graph whose parameters it
knows (no parameter of an unknown module used directly). Reported at the step, or, when
one explicit cut in the file (``.detach()``, ``.data``, ``.item()``, ``torch.tensor(...)``)
is all that stands between those modules and the loss, at that cut, where the fix goes.

Part of the modules an optimizer steps (``_cut_out``), while backwards reach the others: a
layer whose forward reads its own parameters through ``.data`` / ``.detach()``, a reentrant
``checkpoint`` of inputs that do not require grad, a ``.detach()`` in the middle of a
model (a U-Net decoder feature detached: the stages only it reaches, between trained
ones); only when nothing else in the pass uses those modules with a graph, they are not
frozen and nothing else writes their parameters (a target network's soft update). A
module run under ``no_grad`` inside a forward, or a detached output of modules that only
the input feeds (a teacher, a backbone frozen that way), is a frozen feature extractor as
often as a bug: not reported.
"""

from __future__ import annotations

import re

import libcst as cst

from gradguard.analysis.events import Step
from gradguard.analysis.frames import walk_scope
from gradguard.analysis.interp import Interpreter
from gradguard.analysis.model import Edit, Finding, Fix, Message, Related
from gradguard.analysis.source import Source
from gradguard.rules import N_, Rule
from gradguard.rules.common import cut_removal, module_name, once_per_run, path_to

RULE = Rule(
    code="GG402",
    name="parameters-never-receive-gradient",
    severity="warning",
    summary=N_("An optimizer steps parameters that no backward reaches"),
    docs=N_("""## What it does
Finds an `optimizer.step()` in a loop whose parameters no backward of that loop reaches:
every path from them to the loss is cut by a `.detach()`, a `no_grad` block or a
`.data`. Classic shapes: a GAN that detaches the fake in the generator step as well as
in the discriminator step; a generator whose forward runs under `torch.no_grad()`.

## Why is this bad
Nothing raises. The parameters' `.grad` stays None, the optimizer skips them, and that
network never learns: the loss curve of the other network moves, this one stays flat.

## Example
```python
fake = netG(z)
loss_d = bce(netD(real), ones) + bce(netD(fake.detach()), zeros)
loss_d.backward(); opt_d.step()
loss_g = bce(netD(fake.detach()), ones)   # cuts netG out of its own loss
loss_g.backward(); opt_g.step()           # netG gets no gradient
```

## Use instead
Cut the graph only where the network must not be trained (the discriminator step):
```python
loss_g = bce(netD(fake), ones)
loss_g.backward(); opt_g.step()
```
"""),
    valid=(
        """import torch
G = torch.nn.Linear(2, 2)
D = torch.nn.Linear(2, 1)
opt_g = torch.optim.SGD(G.parameters(), lr=0.1)
opt_d = torch.optim.SGD(D.parameters(), lr=0.1)
for _ in range(2):
    fake = G(torch.randn(4, 2))
    loss_d = D(fake.detach()).mean()
    opt_d.zero_grad()
    loss_d.backward()
    opt_d.step()
    loss_g = -D(fake).mean()
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
""",
    ),
    invalid=(
        """import torch
G = torch.nn.Linear(2, 2)
D = torch.nn.Linear(2, 1)
opt_g = torch.optim.SGD(G.parameters(), lr=0.1)
opt_d = torch.optim.SGD(D.parameters(), lr=0.1)
for _ in range(2):
    fake = G(torch.randn(4, 2))
    loss_d = D(fake.detach()).mean()
    opt_d.zero_grad()
    loss_d.backward()
    opt_d.step()
    loss_g = -D(fake.detach()).mean()
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
""",
    ),
)

# gradients written by hand (``p.grad = g``, ``p._grad = ...``, ``p.grad.copy_(g)``):
# an optimizer may step them without any backward
_GRAD_WRITES = re.compile(r"\._?grad\s*(=[^=]|\.(copy_|add_|set_|data|fill_|zero_\(\)\s*\+))|"
                          r"\.grad\s*\+=|\._grad\b")


def writes_grads(text: str) -> bool:
    """Whether the file writes gradients by hand (then GG402 says nothing)."""
    return bool(_GRAD_WRITES.search(text))


@once_per_run
def candidates(interp: Interpreter) -> list:
    """The optimizer steps (one record each) such that, in every loop pass the step ran
    in, no backward of that pass reached the parameters it updates, with their
    verdicts ``(modules, backwards, pass)``."""
    if not interp.step_recs or not interp.backwards:
        return []
    # (one step() of a loop over optimizers steps each in turn: each is judged alone)
    return _judged(interp, lambda st: (id(st.node), st.trained.refs if st.trained is not None
                                       else None),
                   lambda st, escaped, no_graph: _unreached(interp, st, escaped, no_graph) or
                   _unreached_since_clear(interp, st, escaped, no_graph) or
                   _tensors_unreached(interp, st, no_graph))


def _steps_by(interp: Interpreter, key) -> list:
    """The records of ``interp``'s steps grouped by ``key(record)``, in order."""
    groups: dict = {}
    for st in interp.step_recs:
        groups.setdefault(key(st), []).append(st)
    return list(groups.values())


def _judged(interp: Interpreter, key, verdict) -> list:
    """``(last record, its verdict)`` of each group of step records (:func:`_steps_by`)
    for which ``verdict(record, escaped, no_graph)`` holds of every record."""
    escaped = {r: interp._descendants({r}) for r in interp.escaped}
    no_graph = {id(h.inner) for h in interp.no_graph}
    out = []
    for recs in _steps_by(interp, key):
        verdicts = [verdict(st, escaped, no_graph) for st in recs]
        if all(v is not None for v in verdicts):
            out.append((recs[-1], verdicts[-1]))
    return out


def build_all(interp: Interpreter, src: Source) -> list[tuple[Finding, tuple]]:
    """The GG402 findings, each with its step's frames: one per step of
    :func:`candidates`, unless the file writes gradients by hand."""
    if writes_grads(src.text):
        return []
    found = candidates(interp)
    out = [(_finding(interp, st, verdict, src), st.frames) for st, verdict in found]
    done = {id(st.node) for st, _ in found}
    cleared = cleared_steps(interp)
    out += [(_cleared_finding(st, src), st.frames) for st in cleared
            if id(st.node) not in done]
    done |= {id(st.node) for st in cleared}
    return out + [(_cut_out_finding(interp, st, verdict, src), st.frames)
                  for st, verdict in cut_out_parts(interp) if id(st.node) not in done]


@once_per_run
def cut_out_parts(interp: Interpreter) -> list:
    """The steps (their last record) that, in every pass they ran in, leave part of
    their modules without a gradient (:func:`_cut_out`), with the verdict ``(cut,
    cuts)``, one per step."""
    if not any(cut.kind in _PART_CUTS and cut.reach for cut, _ in interp.cut_log):
        return []  # (no cut that could: nothing else to work out)
    return _judged(interp, lambda st: id(st.node),
                   lambda st, escaped, no_graph: _cut_out(interp, st, escaped, no_graph))


# the cuts that take part of a model out of its loss: a parameter read through ``.data``
# or ``.detach()``, a reentrant checkpoint of inputs that do not require grad
_PART_CUTS = ("data", "detach", "checkpoint")


def _cut_out(interp: Interpreter, st: Step, escaped: dict, no_graph: set):
    """``(cut, cuts)`` when the step's modules are known, the backwards of its loop
    pass (each with a graph whose parameters the engine knows) reach some of them, and a
    cut of that pass (``.data`` or ``.detach()`` of a parameter, a reentrant checkpoint of
    inputs without grad) took the graph from ``parts``: some of them, with parameters of
    their own, that no backward reaches, not frozen, nor written another way
    (``load_state_dict``, ``p.data.copy_(...)``: a target network's soft update), nor used
    with a graph elsewhere in the pass. The step updates those and they never get a
    gradient (a layer whose forward reads ``self.weight.data``). ``cut``: the first such
    cut, ``cuts``: every one."""
    p = st.stamp[-1] if st.stamp else None
    cuts = [cut for cut, stamp in interp.cut_log
            if cut.kind in _PART_CUTS and cut.reach and
            (p is None or p in stamp)]
    if not cuts:
        return None
    mods = _known_modules(interp, st, escaped)
    if mods is None:
        return None
    mods = interp._descendants(mods)
    backs = [b for b in interp.backwards if p is None or p in b.stamp]
    if not backs or any(b.wild or id(b.node) in no_graph for b in backs):
        return None
    reached = frozenset().union(*(b.reach for b in backs))
    if not reached & mods or not any(c.reach & mods for c in cuts):
        return None  # (none of them: the whole model, :func:`_unreached`)
    quiet = set(interp.frozen | interp.maybe_frozen)
    quiet |= {store[1] for store, v in interp.state.versions.items()
              if v and isinstance(store, tuple) and store[0] == "param"}
    # what a graph of the pass reached, whether a backward walked it or not: a module
    # used with grad too may be reached by a way the engine lost; not the part of the
    # model a detach in its middle took out (:func:`_cut_between`)
    between = _cut_between(interp, cuts, reached)
    for sid, seg in interp.segs.items():
        if (p is None or p in seg.stamp) and sid not in between:
            r = interp.seg_reach.get(sid)
            if r is not None:
                quiet |= r[0]
    found: list = []
    left: list = []
    used = reached | quiet
    for cut in cuts:
        out = [r for r in cut.reach & mods if interp._has_parameters(r) and
               not interp._descendants({r}) & used]
        if out and all(c.node is not cut.node for c in found):
            found.append(cut)
            left.append(_outermost(interp, out, mods, used))
    return (found[0], tuple(found), left[0]) if found else None


def _outermost(interp: Interpreter, refs, mods, used) -> frozenset:
    """The outermost modules of ``mods`` that hold modules ``refs`` and none of ``used``
    (``self.enc2`` for the Conv2d and BatchNorm2d in it)."""
    parent = {c: q for q, cs in interp.submodules.items() for c in cs}
    out = set()
    for r in refs:
        while parent.get(r) in mods and not interp._descendants({parent[r]}) & used:
            r = parent[r]
        out.add(r)
    return frozenset(out)


def _cut_between(interp: Interpreter, cuts, reached: frozenset) -> frozenset:
    """The segments that ``.detach()`` cuts out of the middle of a model: made only for
    the detached value (no other segment was built from them, no object attribute holds
    them) and built on what modules a backward reaches computed (``o_2 = conv(cat(up(o_3),
    x_2)).detach()`` in a U-Net's decoder, whose ``x_2`` also feeds the encoder's next
    stage: everything between, trained on neither side). A detach of what only the input
    made (a teacher's output, a backbone frozen on purpose) takes out nothing between."""
    out: set = set()
    for cut in cuts:
        mine = cut.segs
        if cut.kind != "detach" or not mine:
            continue
        shared = set()
        for sid, seg in interp.segs.items():
            if sid not in mine and seg.parents & mine:
                shared |= seg.parents & mine  # (built on by something else)
        for key, b in interp.state.env.items():
            if key[0] == "@" and b.val.segs & mine:
                shared |= b.val.segs & mine  # (kept on an object: used who knows where)
        only = mine - shared
        upstream = frozenset().union(*(interp.segs[s].parents for s in only)) - only
        if only and interp.reach_of(upstream)[0] & reached:
            out |= only
    return frozenset(out)


def _cut_out_finding(interp: Interpreter, st: Step, verdict, src: Source) -> Finding:
    cut, cuts, left = verdict
    opt = src.code(st.optimizer, 30)
    if cut.kind == "detach" and cut.segs:
        return _cut_between_finding(interp, st, cut, left, opt, src)
    if cut.kind == "checkpoint":
        # (``checkpoint(fn, x)``: ``fn``)
        what = cut.node.args[0].value if cut.node.args else cut.node
        msgid = N_("No tensor given to `{code}` requires grad, so this reentrant checkpoint "
                   "runs `{what}` without a graph: `{optimizer}` (line {line}) steps its "
                   "parameters, but no backward of this loop reaches them, so their "
                   "gradients stay None and they do not train")
    else:
        what = cut.node.value if isinstance(cut.node, cst.Attribute) else cut.node
        if isinstance(what, cst.Call) and isinstance(what.func, cst.Attribute):
            what = what.func.value  # (``self.weight.detach()``: ``self.weight``)
        msgid = N_("`{code}` cuts `{what}` out of the graph: `{optimizer}` (line {line}) "
                   "steps it, but no backward of this loop reaches it, so its gradient "
                   "stays None and it does not train")
    args = {"code": src.code(cut.node, 40), "what": src.code(what, 30), "optimizer": opt,
            "line": src.line_ref(st.node)}
    related = (Related(src.span(st.node), Message(N_("`{optimizer}` steps it here"),
                                                  {"optimizer": opt})),)
    local = src.span(cut.node).path is None
    # each such cut of a parameter taken off (``self.weight.data`` -> ``self.weight``)
    edits = [cut_removal(c.node, src) for c in cuts if c.kind in ("data", "detach")]
    fix = Fix(Message(N_("Use the parameters themselves (without `.data` / `.detach()`), "
                         "so that the backward reaches them"), {}),
              tuple(e for e in edits if e is not None), preferred=True) \
        if edits and None not in edits else None
    return Finding(RULE.code, src.span(cut.node) if local else src.site(st.node),
                   Message(msgid, args),
                   related if local else (Related(src.span(cut.node), Message(
                       N_("the graph is cut here"), {})),) + related, (fix,) if fix else ())


def _cut_between_finding(interp: Interpreter, st: Step, cut, left, opt: str,
                         src: Source) -> Finding:
    """A ``.detach()`` of a value computed in the middle of the model: the modules before
    it that reach the loss through it alone get no gradient (the outermost ones named)."""
    names = sorted({module_name(interp, r) for r in left})
    args = {"code": src.code(cut.node, 40), "modules": ", ".join(f"`{n}`" for n in names),
            "optimizer": opt, "line": src.line_ref(st.node)}
    message = Message(N_("`{code}` cuts the graph in the middle of the model: the loss "
                         "depends on the parameters of {modules} only through it, so no "
                         "backward of this loop reaches them, and `{optimizer}` (line "
                         "{line}) steps them with no gradient: they do not train"), args)
    related = (Related(src.span(st.node), Message(N_("`{optimizer}` steps it here"),
                                                  {"optimizer": opt})),)
    edit = cut_removal(cut.node, src)
    fix = Fix(Message(N_("Remove `.detach()`, so that the backward reaches {modules}"),
                      {"modules": args["modules"]}), (edit,), preferred=True) \
        if edit is not None else None
    local = src.span(cut.node).path is None
    return Finding(RULE.code, src.span(cut.node) if local else src.site(st.node), message,
                   related if local else (Related(src.span(cut.node), Message(
                       N_("the graph is cut here"), {})),) + related, (fix,) if fix else ())


@once_per_run
def cleared_steps(interp: Interpreter) -> list:
    """The steps that, every time they ran, came right after their optimizer's
    ``zero_grad()`` with no backward in between (the last record of each)."""
    return [recs[-1] for recs in _steps_by(interp, lambda st: id(st.node))
            if all(r.cleared is not None and r.cleared[0] is recs[0].cleared[0] for r in recs)]


def _cleared_finding(st: Step, src: Source) -> Finding:
    zero, zero_stmt = st.cleared
    message = Message(N_("`{optimizer}.step()` runs right after `{zero}` (line {line}) with no "
                         "backward in between: every gradient is None, so the step updates "
                         "nothing and the model does not train"),
                      {"optimizer": src.code(st.optimizer, 30), "zero": src.code(zero, 40),
                       "line": src.line_ref(zero)})
    related = (Related(src.span(zero), Message(N_("the gradients are set to None here"))),)
    fix = None
    if _same_block(zero_stmt, st.stmt, src):
        # zero the gradients after the step instead (accumulation keeps working)
        fix = Fix(Message(N_("Move `{zero}` after `{optimizer}.step()`"),
                          {"zero": src.code(zero, 40), "optimizer": src.code(st.optimizer, 30)}),
                  (src.delete_lines(zero_stmt),
                   src.insert_line_after(st.stmt, src.statement_code(zero_stmt).strip())),
                  preferred=True)
    return Finding(RULE.code, src.site(st.node), message, related, (fix,) if fix else ())


def _same_block(first, second, src: Source) -> bool:
    """Whether two one-line statements of this file sit in one block, ``first`` above
    ``second`` (the same indentation, nothing less indented between them)."""
    if not all(isinstance(x, cst.SimpleStatementLine) and len(x.body) == 1 for x in
               (first, second)):
        return False
    a, b = src.span(first), src.span(second)
    if a.path is not None or b.path is not None or a.end.line >= b.start.line:
        return False
    indent = src.indent_of(first)
    if src.indent_of(second) != indent:
        return False
    between = (src.line(n) for n in range(a.end.line + 1, b.start.line))
    return all(not line.strip() or line.startswith(indent) for line in between)


def _known_modules(interp: Interpreter, st: Step, escaped: dict) -> set | None:
    """The modules whose parameters the step updates, when the optimizer was given exactly
    the parameters of modules built in the analysed code and never handed to code the
    engine does not follow; else None."""
    t = st.trained
    if t is None or not t.pure or not t.names or len(t.refs) < len(t.names) or \
            not t.refs <= interp.created.keys():
        return None
    mods = set(t.mods) or interp._descendants(t.refs)
    # an attribute that held something unknown when the optimizer was built may have been
    # any module: the model it later turns out to be (``self.net.train()``) counts as held
    mods |= interp._descendants({c for m in mods for c in interp.submodules.get(m, ())
                                 if c[0] == "ext"})
    return None if any(d & mods for d in escaped.values()) else mods


def _misses(backs, mods, no_graph: set) -> bool:
    """Whether there are backwards and none of them reaches ``mods`` (each with a graph
    whose parameters the engine knows)."""
    return bool(backs) and not any(b.wild or b.reach & mods or id(b.node) in no_graph
                                   for b in backs)


def _unreached(interp: Interpreter, st: Step, escaped: dict, no_graph: set):
    """``(modules, backwards, pass, None)`` when the step's modules are known and no
    backward of its loop pass reaches their parameters; else None."""
    mods = _known_modules(interp, st, escaped)
    if mods is None:
        return None
    p = st.stamp[-1] if st.stamp else None
    backs = [b for b in interp.backwards if p is None or p in b.stamp]
    return (mods, backs, p, None) if _misses(backs, mods, no_graph) else None


def _tensors_unreached(interp: Interpreter, st: Step, no_graph: set):
    """``(no modules, backwards, pass, None)`` for an optimizer given tensors of its own and
    no module's parameters (``Adam([lambda1, lambda2])``) when the backwards of the step's
    loop pass each have a graph the engine knows and none reaches those tensors (a
    ``torch.as_tensor`` copy of them, an ``.item()`` of them is what the loss was built
    from); else None."""
    t = st.trained
    if t is None or t.refs or t.names or not t.stores or st.trained.site is None:
        return None
    p = st.stamp[-1] if st.stamp else None
    if p is None:
        return None
    # (an autograd.grad sets no .grad: the double-backward terms of a PINN's residual)
    backs = [b for b in interp.backwards if p in b.stamp and not b.returns_grads]
    if not backs or any(b.wild or b.src is None and not b.reach or id(b.node) in no_graph or
                        b.leaves & t.stores for b in backs):
        return None
    return frozenset(), backs, p, None


def _unreached_since_clear(interp: Interpreter, st: Step, escaped: dict, no_graph: set):
    """``(modules, backwards, pass, zero_grad)`` when the step's modules are known, a
    ``zero_grad()`` (the optimizer's, or a module's covering them) set their gradients to
    None, and the backwards that ran between it and the step reach none of them (an
    earlier backward of the pass that did, the discriminator step's through the fake, had
    its gradients cleared); else None."""
    if st.since is None:
        return None
    (zero, zero_stmt, first), reached = st.since
    mods = _known_modules(interp, st, escaped)
    if mods is None or interp._descendants(reached) & mods:
        return None
    backs = interp.backwards[first:st.backs]
    p = st.stamp[-1] if st.stamp else None
    return (mods, backs, p, (zero, zero_stmt)) if _misses(backs, mods, no_graph) else None


def _finding(interp: Interpreter, st: Step, verdict, src: Source) -> Finding:
    mods, backs, p, zero = verdict
    names = ", ".join(sorted(st.trained.names)) or src.code(st.trained.site.args[0].value, 40)
    opt = src.code(st.optimizer, 30)
    related, seen, cuts = [], set(), []
    own = interp.backwards[st.backs - 1] if st.backs else None
    silencer = own.silencer if own is not None and any(b is own for b in backs) else None
    if silencer is not None:
        # ``loss.requires_grad_(True)`` hid the error: the finding is where it was hidden
        message = Message(N_("`{optimizer}` steps the parameters of `{modules}`, but `{code}` "
                             "makes a tensor that has no graph a new leaf: the backward on "
                             "line {line} runs and stops there, so their gradients stay "
                             "None and `{modules}` does not train"),
                          {"optimizer": opt, "modules": names, "code": src.code(silencer, 40),
                           "line": src.line_ref(own.node)})
        related.append(Related(src.span(st.node), Message(
            N_("`{optimizer}` steps `{modules}` here"), {"optimizer": opt, "modules": names})))
    elif zero is None:
        message = Message(N_("`{optimizer}` steps the parameters of `{modules}`, but no "
                             "backward of this loop reaches them (their way to the loss is "
                             "cut, or the loss is built from other modules), so their "
                             "gradients stay None and `{modules}` does not train"),
                          {"optimizer": opt, "modules": names})
    else:
        message = Message(N_("`{optimizer}` steps the parameters of `{modules}`, but no "
                             "backward since `{zero}` (line {line}) reaches them (their way "
                             "to the loss is cut, or the loss is built from other modules), "
                             "so their gradients are None and `{modules}` does not train"),
                          {"optimizer": opt, "modules": names, "zero": src.code(zero[0], 40),
                           "line": src.line_ref(zero[0])})
        related.append(Related(src.span(zero[0]),
                               Message(N_("the gradients are set to None here"))))
    # the cuts on the losses' own paths, when every loss's is known (a comparison that
    # made a mask cut nothing the loss needed)
    on_path = None if any(b.src is None for b in backs) else \
        {id(c.node) for b in backs for c in b.src} or None
    before = max((b.cuts for b in backs), default=len(interp.cut_log))
    for cut, stamp in interp.cut_log[:before]:
        if (p is None or p in stamp) and (cut.reach & mods or cut.leaves & st.trained.stores) \
                and id(cut.node) not in seen and \
                (on_path is None or id(cut.node) in on_path):
            seen.add(id(cut.node))
            cuts.append(cut)
            msgid = N_("`{code}` runs under no_grad here") if cut.kind == "no_grad_call" \
                else N_("the graph from `{modules}` is cut here")
            related.append(Related(src.span(cut.node), Message(
                msgid, {"code": src.code(cut.node, 40), "modules": names})))
    for b in backs:
        if id(b.node) not in seen and len(related) < 5:
            seen.add(id(b.node))
            related.append(Related(src.span(b.node), Message(
                N_("this backward does not reach `{modules}`"), {"modules": names}),
                backward=True))
    if st.trained.site is not None:
        related.append(Related(src.span(st.trained.site), Message(
            N_("the optimizer took the parameters `{modules}` had here"), {"modules": names})))
    at = silencer if silencer is not None else st.node
    again = _built_again(st, src) if silencer is None else None
    fix = (_build_optimizer_after(st, again[1], src) if again[2] != "loop" else None) \
        if again is not None else \
        _fix(interp, st, backs, mods, src) or _stack_fix(cuts, src)
    if silencer is None and zero is None and len(cuts) == 1 and \
            cuts[0].kind in ("detach", "data", "item", "factory") and \
            src.span(cuts[0].node).path is None:
        # one explicit cut on the way (``.detach()``, ``.item()``, ``torch.tensor(...)``):
        # reported there, where the graph is lost and the fix goes
        at = cuts[0].node
        message = Message(N_("`{code}` cuts `{modules}` out of the loss: `{optimizer}` (line "
                             "{line}) steps their parameters, but no backward of this loop "
                             "reaches them, so their gradients stay None and `{modules}` "
                             "does not train"),
                          {"code": src.code(at, 40), "modules": names, "optimizer": opt,
                           "line": src.line_ref(st.node)})
        related = [Related(src.span(st.node), Message(
            N_("`{optimizer}` steps `{modules}` here"), {"optimizer": opt, "modules": names}))
        ] + [r for r in related if r.span != src.span(at)]
    if again is not None:
        # the model built again after the optimizer took its parameters: reported where it
        # is built again (the optimizer belongs after it)
        name, at, kind = again
        if kind == "whole":
            message = Message(N_("`{name}` is built again here, after `{optimizer}` took the "
                                 "parameters of the previous `{name}` (line {line}): the "
                                 "backward reaches this one, the optimizer steps the old one, "
                                 "so `{name}` does not train. Build the optimizer after this "
                                 "line"), {"name": name, "optimizer": opt,
                                           "line": src.line_ref(st.trained.site)})
        elif kind == "loop":
            message = Message(N_("`{code}` builds layers of `{name}` again inside the loop, "
                                 "after `{optimizer}` took their parameters (line {line}): the "
                                 "backward reaches the new layers, the optimizer steps the old "
                                 "ones, so they do not train. Build the layers once, before the "
                                 "optimizer takes them"),
                              {"code": src.code(at, 40), "name": name, "optimizer": opt,
                               "line": src.line_ref(st.trained.site)})
        else:
            message = Message(N_("`{code}` builds layers of `{name}` again, after "
                                 "`{optimizer}` took their parameters (line {line}): the "
                                 "backward reaches the new layers, the optimizer steps the old "
                                 "ones, so they do not train. Build the optimizer after this "
                                 "line"), {"code": src.code(at, 40), "name": name,
                                           "optimizer": opt,
                                           "line": src.line_ref(st.trained.site)})
        related = [Related(src.span(st.trained.site), Message(
            N_("the optimizer took the parameters `{modules}` had here"),
            {"modules": names})), Related(src.span(st.node), Message(
                N_("`{optimizer}` steps `{modules}` here"),
                {"optimizer": opt, "modules": names}))]
    return Finding(RULE.code, src.span(at),
                   message, tuple(related[:6]), (fix,) if fix else ())


def _built_again(st: Step, src: Source) -> tuple | None:
    """``(name, node, kind)`` when the model the step's optimizer took the parameters
    of was built again after it, at ``node`` in this file: ``kind`` "whole", the
    variable bound to a new model; "layers", layers of it replaced (in a call made at
    ``node``); "loop", layers of it replaced inside the loop that steps it (``node``:
    the statement of this file nearest the replacement, a ``forward`` building its
    layers on every call)."""
    if st.rebound is None or st.trained is None or st.trained.site is None:
        return None
    name, where, in_loop = st.rebound
    site = src.span(st.trained.site)
    # (inside a ``forward``: on every call; ``model.reset()`` in the loop is a rebuild the
    # code asks for, after which the optimizer belongs)
    in_loop = in_loop and isinstance(where, tuple) and any(
        isinstance(func, cst.FunctionDef) and func.name.value == "forward"
        for _, func in where)
    if isinstance(where, tuple):
        # the statement on the way to the replacement that runs in the function (or the
        # module body) that built the optimizer: where building it instead would help;
        # when that is another file's, the last one of this file on the way
        stmts = [s for s, func in where if s is not None and src.span(s).path is None and
                 (func is None or in_loop or site.path is not None or
                  _encloses(src.span(func), site))]
        if not stmts:
            return None
        where, kind = stmts[-1], "loop" if in_loop else "layers"
    else:
        if src.span(where).path is not None:
            return None
        kind = "whole"
    at = where.body[0] if isinstance(where, cst.SimpleStatementLine) and \
        len(where.body) == 1 else where
    return name, at, kind


def _build_optimizer_after(st: Step, at: cst.CSTNode, src: Source) -> Fix | None:
    """Move ``opt = Optim(model.parameters(), ...)`` to just after the statement that
    builds the model (or its layers) again, when both are in the same function of this
    file, that statement comes later, and nothing in between reads the optimizer (a
    scheduler built on it would keep the old one)."""
    site = st.trained.site
    path = path_to(src.module, site)
    stmts = [n for n in path or () if isinstance(n, cst.SimpleStatementLine)]
    if not stmts or len(stmts[-1].body) != 1 or not isinstance(stmts[-1].body[0], cst.Assign):
        return None
    built, assign = stmts[-1], stmts[-1].body[0]
    if assign.value is not site or len(assign.targets) != 1 or \
            not isinstance(assign.targets[0].target, cst.Name):
        return None
    again = path_to(src.module, at)
    later = [n for n in again or () if isinstance(n, cst.SimpleStatementLine)]
    if not later or _function_of(path) is not _function_of(again):
        return None
    here = later[-1]
    a, b = src.span(built), src.span(here)
    if a.path is not None or b.path is not None or a.end.line >= b.start.line:
        return None
    opt = assign.targets[0].target.value
    scope = _function_of(path) or src.module
    for node in walk_scope(scope):  # (a def between may name it: it runs later)
        if isinstance(node, cst.Name) and node.value == opt and \
                a.end.line < src.span(node).start.line <= b.end.line:
            return None
    return Fix(Message(N_("Build `{optimizer}` after line {line}, once `{name}` is built "
                          "again"), {"optimizer": opt, "line": src.line_ref(here),
                                     "name": st.rebound[0]}),
               (src.delete_lines(built),
                src.insert_line_after(here, src.statement_code(built).strip())),
               preferred=True)


def _function_of(path) -> cst.FunctionDef | None:
    """The innermost function on a node path (None: the module body)."""
    return next((n for n in reversed(path or ()) if isinstance(n, cst.FunctionDef)), None)


def _encloses(outer, inner) -> bool:
    return outer.path == inner.path and \
        (outer.start.line, outer.start.column) <= (inner.start.line, inner.start.column) and \
        (inner.end.line, inner.end.column) <= (outer.end.line, outer.end.column)


def _fix(interp: Interpreter, st: Step, backs, mods, src: Source) -> Fix | None:
    """Remove the one ``.detach()`` / ``.data`` that cuts these modules out of the step's
    own loss (the last backward before it), when no other backward of the loop goes
    through that cut (a cut another loss also goes through is meant for that one)."""
    own = interp.backwards[st.backs - 1] if st.backs else None
    if own is None or not any(b is own for b in backs) or own.src is None:
        return None
    cuts = [c for c in own.src if c.kind in ("detach", "data", "grad") and c.reach & mods]
    if len(cuts) != 1:
        return None
    cut = cuts[0]
    if cut.freed and cut.kind != "grad":
        # a backward already freed the graph behind the cut: through it, this one would
        # raise (create_graph=True keeps the graph of the gradients it makes)
        return None
    if any(b is not own and b.src is not None and any(c.node is cut.node for c in b.src)
           for b in backs):
        return None
    if cut.kind == "grad":
        # MAML's inner step: gradients that keep their graph (second-order)
        edit = src.add_keyword(cut.node, "create_graph", "True")
        if edit.span.path is not None:
            return None
        return Fix(Message(N_("Pass create_graph=True to `{code}`, so that the loss after the "
                              "inner step reaches the step's modules"),
                           {"code": src.code(cut.node.func, 40)}), (edit,), preferred=True)
    edit = cut_removal(cut.node, src)
    if edit is None:
        return None
    return Fix(Message(N_("Remove `{code}` from this loss's path, so that the step's "
                          "modules receive a gradient"), {"code": src.code(cut.node, 40)}),
               (edit,), preferred=True)


def _stack_fix(cuts, src: Source) -> Fix | None:
    """``torch.tensor(log_probs)`` of a list of tensors copies their values into a new
    tensor without their graph; ``torch.stack(log_probs)`` makes the same tensor (the
    elements stacked along a new first dimension) with it. When such copies are all the
    cuts of this pass that the modules' graph went through (``cuts``), build each with
    ``stack``."""
    if not cuts:
        return None
    edits = []
    for c in cuts:
        call = c.node
        if not (c.kind == "factory" and isinstance(call, cst.Call) and
                isinstance(call.func, cst.Attribute) and call.func.attr.value == "tensor" and
                len(call.args) == 1 and call.args[0].keyword is None and
                not call.args[0].star):
            return None
        span = src.span(call.func.attr)
        if span.path is not None:
            return None
        edits.append(Edit(span, "stack"))
    return Fix(Message(N_("Build `{code}` with torch.stack, which keeps the graph of the "
                          "tensors it stacks, so that the step's modules receive a gradient"),
                       {"code": ", ".join(src.code(c.node, 40) for c in cuts)}),
               tuple(edits), preferred=True)
