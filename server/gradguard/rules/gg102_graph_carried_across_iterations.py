"""GG102 graph-carried-across-iterations: state carried from one loop iteration to the
next keeps the previous iteration's graph attached, so iteration 2 walks the graph that
iteration 1's backward freed (RNN hidden state, running sums, ``self.h``).

PyTorch docs, "Truncated BPTT" / autograd mechanics: detach the carried state between
iterations (``h = h.detach()``).
"""

from __future__ import annotations

import libcst as cst

from gradguard.analysis.interp import Hazard, Interpreter
from gradguard.analysis.model import Finding, Fix, Message, Related
from gradguard.analysis.source import Source
from gradguard.rules import N_, Rule
from gradguard.rules import common as C

RULE = Rule(
    code="GG102",
    name="graph-carried-across-iterations",
    severity="error",
    summary=N_("A value carried to the next loop iteration keeps the freed graph of the "
               "previous one"),
    docs=N_("""## What it does
Finds loop-carried state (an RNN hidden state, a running sum, an attribute such as
`self.h`) that is computed from graph-carrying tensors in one iteration and used in the
next, while each iteration calls backward.

## Why is this bad
Iteration 1's backward frees the graph behind the state. Iteration 2 builds on the same
state, so its backward walks into iteration 1's freed graph and raises
`RuntimeError: Trying to backward through the graph a second time`. Adding
`retain_graph=True` silences the error but keeps every iteration's graph in memory,
chained to the next one through the carried state, and each backward then runs through
all earlier iterations' graphs: time and memory grow with the step count.

## Example
```python
h = None
for x, y in batches:
    out, h = rnn(x, h)
    loss = crit(out, y)
    loss.backward()
```

## Use instead
Detach the carried state after the backward (truncated backpropagation through time):
```python
h = None
for x, y in batches:
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
    out.sum().backward()
""",
    ),
)


def build(h: Hazard, interp: Interpreter, src: Source) -> Finding:
    """The GG102 finding for a hazard of kind "carried"."""
    carried = carried_variables(h, src, interp)
    seg = C.graph_seg(h, interp)
    name = ", ".join(n for n, _ in carried) if carried else C.graph_site(seg, src, h)[0]
    args = {"tensor": C.tensor_name(h, src), "carried": name,
            "freed_line": C.free_line(h, interp, src)}
    message = Message(N_("`{tensor}` reaches the previous iteration's graph through "
                         "`{carried}`, which the backward on line {freed_line} freed in "
                         "that iteration"), args)
    prefer = [str(n) for n, _ in carried]
    related = C.related(h, interp, src, prefer)
    related += _stored_at(h, src, carried, interp, related)
    fixes = []
    if carried:
        fixes.append(_detach_fix(h, src, carried))
    retain = C.retain_fix(h, interp, src, preferred=False, prefer=prefer)
    if retain is not None:
        fixes.append(retain)
    return Finding(RULE.code, src.site(h.node), message, related,
                   tuple(f for f in fixes if f is not None))


def _stored_at(h: Hazard, src: Source, carried, interp: Interpreter, related) -> tuple:
    """Where each carried attribute got the graph it carries: the statement that stored
    it (``self.h = ...`` in a forward, maybe in an imported module), the last one that
    stored a part of the freed graph, unless that line is already shown."""
    shown = {(r.span.path, r.span.start.line) for r in related}
    hit = set(h.segs)
    out = []
    for name, _ in carried:
        key = getattr(name, "key", None)
        if key is None or key[0] != "@":
            continue
        sites = [(max(segs & hit), stmt) for stmt, segs in
                 interp.attr_stores.get(key, {}).items() if segs & hit]
        if not sites:
            continue
        span = src.span(max(sites, key=lambda t: t[0])[1])
        if (span.path, span.start.line) in shown:
            continue
        shown.add((span.path, span.start.line))
        out.append(Related(span, Message(N_("`{carried}` got the graph here and carries it "
                                            "into the next iteration"), {"carried": str(name)})))
    return tuple(out)


def carried_variables(h: Hazard, src: Source, interp: Interpreter | None = None):
    """The carried variables: names of the loop's frame whose value holds the freed graph
    and that the loop body reads before it assigns them (so the value crosses from one
    iteration to the next); a list of ``(name, value)``. When nothing holds it at the
    backward (a cache read, then overwritten in this iteration), what held it when the
    iteration began."""
    found = _carried(h, src, interp, h.env)
    if not found and h.entry_env is not None:
        found = _carried(h, src, interp, h.entry_env)
    if h.entry_env is not None:
        # what the backpropagated value read of it: all of its history (segments stand for a
        # value's whole history). A running sum (``total_loss += loss``) holds the freed
        # graph too, but no loss reads it: it carries nothing into the next iteration
        read = [(p, v) for p, v in found if _read_by_root(h, p)]
        if read:
            found = read
    return found


def _read_by_root(h: Hazard, path) -> bool:
    b = h.entry_env.get(getattr(path, "key", None))
    return b is None or not b.val.segs or b.val.segs <= h.val_segs


def _carried(h: Hazard, src: Source, interp: Interpreter | None, env_map: dict):
    loop = h.loop
    hit = set(h.segs)
    env = sorted(env_map.items(), key=lambda kv: str(kv[0]))
    names = [(Path(key[1], key), b.val) for key, b in env
             if key[0] == loop.frame and b.val.segs & hit and _read_first(key[1], loop.node, src)]
    # attributes of objects the loop's function holds (``model.h`` set in forward)
    holders = {b.val.ref: key[1] for key, b in env if key[0] == loop.frame and
               b.val.kind in ("object", "module") and isinstance(b.val.ref, tuple)}
    attrs = [(Path(f"{holders[key[1]]}.{key[2]}", key), b.val) for key, b in env
             if key[0] == "@" and key[1] in holders and b.val.segs & hit and
             key[2].isidentifier()]
    # class attributes (``Memory.cache``): one object, whoever reads it
    attrs += [(Path(f"{key[1][1].rsplit('.', 1)[-1]}.{key[2]}", key), b.val) for key, b in env
              if key[0] == "@" and isinstance(key[1], tuple) and key[1][:1] == ("class",) and
              b.val.segs & hit and key[2].isidentifier()]
    # state kept by a submodule (``model.encoder.cell.h``, ``net[2].mem`` of an
    # nn.Sequential): reached through module attributes, only when it is a tensor
    paths = dict(holders)
    todo = list(holders)
    while todo:
        ref = todo.pop()
        for key, b in env:
            if key[0] == "@" and key[1] == ref and b.val.kind in ("object", "module") and \
                    isinstance(b.val.ref, tuple) and b.val.ref not in paths:
                sub = _path(paths[ref], key[2])
                if sub is not None:
                    paths[b.val.ref] = sub
                    todo.append(b.val.ref)
    deep = sorted(((Path(_path(paths[key[1]], key[2]), key), b.val) for key, b in env
                   if key[0] == "@" and key[1] in paths and key[1] not in holders and
                   b.val.segs & hit and key[2].isidentifier() and _tensor_state(b.val)),
                  key=lambda pv: str(pv[0]))
    if interp is not None:
        # state its class sets to None (initially, or in a reset method) is detached
        # only when it is a tensor; a cache (set to None, and never computed from its
        # own previous value) is dropped, so that the next forward recomputes it
        def kind(p: Path, deep: bool) -> Path:
            ref, attr = p.key[1], p.key[2]
            if not _set_to_none(interp, ref, attr):
                return p
            if (ref, attr) not in interp.self_updated and isinstance(ref, tuple) and \
                    len(ref) == 3 and ref[0] == "obj":
                # (recomputed only where a method tests it for None: a cache kept valid
                # by another attribute, ``if self._cached_cell is None or ...``, would
                # hand on None once cleared)
                return Cached(p, p.key) if _tested_for_none(interp, ref, attr) else \
                    Guarded(p, p.key)
            return MaybeNone(p, p.key) if deep else p

        attrs = [(kind(p, False), v) for p, v in attrs]
        deep = [(kind(p, True), v) for p, v in deep]
    return names + attrs + deep


class Path(str):
    """How the fix writes a carried variable or attribute (``hidden``, ``model.rnn.h``);
    ``key`` is its env key."""

    def __new__(cls, text: str, key=None):
        self = super().__new__(cls, text)
        self.key = key
        return self


class MaybeNone(Path):
    """The path of an attribute that may hold None instead of a tensor."""


class Cached(Path):
    """The path of an attribute that caches a value: its class sets it to None (and
    recomputes it then), and it is never computed from its own previous value."""


class Guarded(Path):
    """The path of an attribute that caches a value recomputed under a test of something
    else: neither clearing it nor detaching it is known to keep the program right."""


def _tested_for_none(interp: Interpreter, ref, attr: str) -> bool:
    """Whether a method of the class of object ``ref`` tests ``self.<attr>`` for None
    (``is None``, ``is not None``, ``== None``, ``not self.<attr>``)."""
    def tests(func) -> bool:
        params = list(func.params.posonly_params) + list(func.params.params)
        if not params:
            return False
        me = params[0].name.value

        def is_attr(n) -> bool:
            return isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and \
                n.value.value == me and n.attr.value == attr
        for node in _walk(func.body):
            if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
                other = node.comparisons[0].comparator
                sides = (node.left, other)
                if any(is_attr(a) and isinstance(b, cst.Name) and b.value == "None"
                       for a, b in (sides, sides[::-1])):
                    return True
            if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not) \
                    and is_attr(node.expression):
                return True
        return False
    info = interp.classes.get(ref[-1])
    return info is not None and any(tests(m) for c in interp._mro(info)
                                    for m in c.methods.values())


def _set_to_none(interp: Interpreter, ref, attr: str) -> bool:
    """Whether a method of the class of object ``ref`` assigns ``self.<attr> = None``."""
    if not (isinstance(ref, tuple) and len(ref) == 3 and ref[0] == "obj") and \
            not (isinstance(ref, tuple) and len(ref) == 2 and ref[0] == "self"):
        return True
    todo, seen = [ref[-1]], set()
    while todo:
        info = interp.classes.get(todo.pop())
        if info is None or info.node.name.value in seen:
            continue
        seen.add(info.node.name.value)
        todo.extend(info.bases)
        for method in info.methods.values():
            for node in _none_assigns(method):
                if node == attr:
                    return True
    return False


def _none_assigns(func):
    """Attributes of ``self`` a method assigns the literal None."""
    params = list(func.params.posonly_params) + list(func.params.params)
    if not params:
        return
    me = params[0].name.value
    for node in _walk(func.body):
        if isinstance(node, cst.Assign) and isinstance(node.value, cst.Name) and \
                node.value.value == "None":
            for t in node.targets:
                if isinstance(t.target, cst.Attribute) and \
                        isinstance(t.target.value, cst.Name) and t.target.value.value == me:
                    yield t.target.attr.value


def _walk(node):
    yield node
    for c in node.children:
        yield from _walk(c)


def _path(parent: str, attr: str) -> str | None:
    """``parent.attr``, or ``parent[i]`` for the i-th child of an nn.Sequential."""
    if attr.isidentifier():
        return f"{parent}.{attr}"
    return f"{parent}[{attr}]" if attr.isdigit() else None


def _tensor_state(val) -> bool:
    """A tensor, or a tuple of tensors: what ``.detach()`` element-wise can cut."""
    if val.elts is not None:
        return all(e.kind == "tensor" for e in val.elts)
    return val.kind == "tensor"


def _read_first(name: str, loop: cst.CSTNode, src: Source) -> bool:
    """Whether the loop body reads ``name`` before it assigns it, in execution order
    (an assignment's targets are written after its value is read; ``x += 1`` reads)."""
    index = C.name_index(loop.body, src)
    events = [(src.span(n).start, "read") for n in index.names.get(name, ())]
    writes = set()
    for stmt in index.assigns:
        for t in stmt.targets:
            for n in C.name_index(t.target, src).names.get(name, ()):
                writes.add(src.span(n).start)
                events.append((src.span(stmt).end, "write"))
    for stmt in index.fors:
        for n in C.name_index(stmt.target, src).names.get(name, ()):
            writes.add(src.span(n).start)
    events = sorted(e for e in events if not (e[1] == "read" and e[0] in writes))
    return bool(events) and events[0][1] == "read"


def detach_lines(carried) -> list[str] | None:
    """The statements that detach each carried ``(name, value)`` (a tuple element-wise),
    or None when one of them is not known to be a tensor (a container, an object, a
    ``deque`` of a library: ``.detach()`` of it would raise)."""
    if any(not _detachable(val) for name, val in carried if not isinstance(name, Cached)) or \
            any(isinstance(name, Guarded) for name, _ in carried):
        return None
    out = []
    for name, val in carried:
        if isinstance(name, Cached):
            out.append(f"{name} = None")
        elif isinstance(name, MaybeNone):
            out += [f"if {name} is not None:", f"    {name} = {name}.detach()"]
        elif val.elts is not None:
            out.append(f"{name} = tuple(t.detach() for t in {name})")
        else:
            out.append(f"{name} = {name}.detach()")
    return out


def _last_rebinding(after, names: set, src: Source):
    """The last statement of ``after``'s block, from ``after`` on, that binds one of the
    carried ``names`` (``hiddens = output["hiddens"]`` after the backward: what the next
    iteration gets is that value, to be detached there); else ``after``."""
    block = C.block_of(src.module, after)
    if block is not None:
        for st in block.body[block.body.index(after) + 1:]:
            if isinstance(st, cst.SimpleStatementLine) and any(
                    isinstance(t.target, cst.Name) and t.target.value in names
                    for small in st.body if isinstance(small, cst.Assign)
                    for t in small.targets):
                after = st
    return after


def _detachable(val) -> bool:
    """A tensor, or a tuple of values that are (an RNN's ``(h, c)``)."""
    if val.kind == "tuple" and val.elts is not None:
        return all(_detachable(e) for e in val.elts)
    return val.kind == "tensor"


def _detach_fix(h: Hazard, src: Source, carried) -> Fix | None:
    """Detach every carried variable right after the backward that freed the graph."""
    free = h.frees[0]
    after = next((stmt for fid, stmt in free.stmts if fid == h.loop.frame), None)
    lines = detach_lines(carried)
    if after is None or lines is None:
        return None
    after = _last_rebinding(after, {name for name, _ in carried}, src)
    names = ", ".join(name for name, _ in carried)
    title = N_("Detach `{name}` after the backward on line {line}, so the next iteration "
               "starts a new graph")
    if all(isinstance(name, Cached) for name, _ in carried):
        # a detached cache would keep the values it was computed from, and whatever
        # computed it (parameters, inputs that require grad) would get no gradient again
        title = N_("Clear the cached `{name}` after the backward on line {line}, so the "
                   "next forward recomputes it from the current values")
    return Fix(Message(title, {"name": names, "line": src.line_ref(after)}),
               (src.insert_line_after(after, *lines),),
               preferred=True)
