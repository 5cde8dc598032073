"""The abstract domain: what the interpreter knows about a value and about the graph.

A :class:`Val` is an abstract value: its kind (tensor, nn module, optimizer, in-file
object, function, ...) and the set of *graph segments* it depends on. A segment
(:class:`Seg`) stands for the autograd nodes one operation added to the graph at one
program point in one iteration; a value depends on every segment of its history, so a
backward through the value walks them all (torch/csrc/autograd/engine.cpp executes every
node reachable from the root). A :class:`State` maps names and object attributes to
values and records which segments a backward has freed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import libcst as cst

EMPTY: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Val:
    """An abstract value.

    ``kind``: "tensor", "module" (an nn.Module instance or something called like one),
    "optimizer", "object" (instance of a class of this file), "func", "class", "ns"
    (an imported module or name: ``ref`` is its dotted path), "lazy" (an import of the
    user's code not read yet: ``ref`` is a :class:`Lazy` or :class:`LazyJoin`; reading
    the name replaces it), "dist" (a
    torch.distributions object), "tuple", "container", "none", "scalar" or "unknown".
    ``segs``: ids of the graph segments the value depends on (empty: no graph).
    ``leaf``: a leaf that requires grad (parameters, ``requires_grad=True``): never freed.
    ``ref``: object id, function/class reference, dotted path or recurrent-module kind.
    ``elts``: element values of a tuple or list of known shape.
    ``alias``: for a loop target, the env key of the container it iterates (so that
    ``detach_()`` on the element is seen on the container).
    ``store``: the tensor's storage identity (views and ``detach()`` share it; in-place
    operations bump its version), ``("param", module)`` for a module's parameters.
    ``each``: for a container, the segments that stand for a different graph in each of
    its elements (``[net(x) for x in xs]``: ``net(x)`` runs once per element), so that
    iterating it gives each iteration a graph of its own.
    ``src``: where the value's history cut a graph (:class:`Cut` records, at most
    :data:`MAX_CUTS`), or None when some part of its history is not known (an unknown
    call, a parameter, a value of unknown provenance). A tensor with no graph, no grad
    leaf and a ``src`` is *known* to have no graph (GG401); unknown is quiet.
    """

    kind: str = "unknown"
    segs: frozenset[int] = EMPTY
    leaf: bool = False
    ref: Any = None
    elts: tuple["Val", ...] | None = None
    alias: Any = None
    store: Any = None
    each: frozenset[int] = EMPTY
    src: tuple | None = None
    nullable: bool = False  # may be None too (a join with None: ``h = None`` before a loop)

    @property
    def grad(self) -> bool:
        """True when the value (maybe) requires grad: it has a graph or is a grad leaf."""
        return bool(self.segs) or self.leaf

    def cut(self) -> "Val":
        """The value with its graph cut (``.detach()``): a tensor with no history that
        shares the storage (and version counter) of the original."""
        return Val("tensor", store=self.store)


@dataclass(frozen=True)
class Cut:
    """A known place where a value's history has no graph: ``kind`` "detach"
    (``.detach()``/``detach_()``), "data" (``.data``), "no_grad" (computed under
    ``no_grad``/``inference_mode``: ``node`` is the ``with`` or the decorated ``def``),
    "item" (a Python number: ``.item()``, ``float()``), "factory" (a new tensor:
    ``torch.tensor(...)``, ``torch.zeros(...)``, a non-differentiable op), "frozen" (a
    module whose parameters do not require grad, on inputs that do not), "grad" (the
    gradients ``torch.autograd.grad`` returns without ``create_graph``), "checkpoint" (a
    module called inside a reentrant ``checkpoint`` none of whose inputs requires grad:
    ``node`` is the ``checkpoint(...)`` call).
    ``had_graph``: the cut value had a graph or was a grad leaf (removing the cut would
    give the result one); ``reach``: the modules whose parameters that graph reached;
    ``freed``: a backward had already freed tensors that graph saved (a backward through
    it, were the cut removed, would raise); ``leaves``: the storages of the leaves that
    require grad the cut value was or its graph reached (tensors an optimizer may be
    given itself: ``Adam([lambda1, lambda2])``); ``segs``: the segments of the graph the
    cut value had."""

    kind: str
    node: Any
    had_graph: bool = False
    reach: frozenset = EMPTY
    freed: bool = False
    leaves: frozenset = EMPTY
    segs: frozenset = field(default=EMPTY, compare=False)  # (not what tells cuts apart)


MAX_CUTS = 4


def scalars_only(v: "Val") -> bool:
    """Whether ``v`` is a Python number, string or None, or a list, tuple or dict of only
    those (``dims = (0,) + tuple(range(2, n))``, a config dict): no tensor's history is in
    it."""
    if v.kind in ("scalar", "none"):
        return True
    if v.kind not in ("container", "tuple") or v.segs or v.leaf or v.store is not None:
        return False
    items = dict_items(v)
    if items is not None:  # (() is a dict of contents not known)
        return bool(items) and all(scalars_only(e) for e in items[1])
    if v.elts is not None:
        return all(scalars_only(e) for e in v.elts)
    ref = v.ref
    return isinstance(ref, tuple) and len(ref) >= 2 and (
        ref[0] == "range" or ref[0] == "elem" and isinstance(ref[1], Val) and
        scalars_only(ref[1]))


def merge_src(vals) -> tuple | None:
    """The ``src`` of a value computed from ``vals``: the union of their cuts, or None
    when one of them is not known. Python scalars and None, and lists or tuples of them,
    contribute nothing."""
    out: list = []
    for v in vals:
        src = v.src
        if src is None:
            if scalars_only(v):
                continue
            return None
        for c in src:
            if len(out) < MAX_CUTS and not any(c.kind == o.kind and c.node is o.node
                                               for o in out):
                out.append(c)
    return tuple(out)


@dataclass(frozen=True)
class Alts:
    """The callables one name may be bound to where branches joined (``act = nn.ReLU if
    last else nn.Tanh``, a lambda chosen in an ``if``, a ``try``/``except`` fallback
    import): a call of the name runs each of them and joins the results. ``options`` are
    the refs of :class:`Val` of one kind ("func", "class" or "ns"), at most
    :data:`MAX_ALTS`, none of them an :class:`Alts`."""

    options: tuple

    def map(self, fn) -> "Alts":
        """The alternatives with ``fn`` applied to each ref."""
        return Alts(tuple(fn(o) for o in self.options))


# more alternatives than this and the callee is unknown
MAX_ALTS = 4


@dataclass(frozen=True, eq=False)
class Lazy:
    """What an import of a possible module of the user's binds until the name is read:
    ``from <level dots><module> import <name>`` (``name`` None: ``import <module>``),
    found with ``imports`` and loaded ``depth`` imports deep when first read, and
    ``fallback`` when it is not the user's code. Looking imports up and loading modules
    only for the names a program reads keeps a module that imports half a library from
    loading all of it. (Equal only to itself.)"""

    module: str
    level: int
    name: str | None
    imports: Any
    depth: int
    fallback: "Val"


@dataclass(frozen=True)
class LazyJoin:
    """Where branches joined an unread import with something else (``try: from .fast
    import op`` / ``except ImportError: op = slow_op``): each of ``options`` is read
    and the results join."""

    options: tuple

# kinds whose refs join into alternatives (a call dispatches on the ref)
CALLABLE_KINDS = frozenset({"func", "class", "ns"})


def _join_refs(kind: str, a, b):
    """The ref of a join of two values of ``kind``: the same ref, the alternatives of both
    (callables), or None (not known)."""
    if a == b:
        return a
    if kind == "module":
        # two nn modules (``nn.Linear(...) if n else nn.Identity()``): each is called
        if not all(isinstance(r, tuple) or isinstance(r, Alts) for r in (a, b)):
            return None
    elif kind not in CALLABLE_KINDS or a is None or b is None:
        return None
    options = list(a.options if isinstance(a, Alts) else (a,))
    for o in b.options if isinstance(b, Alts) else (b,):
        if not any(o is x or o == x for x in options):
            options.append(o)
    return Alts(tuple(options)) if len(options) <= MAX_ALTS else None


def module_refs(v: Val) -> tuple:
    """The known modules a value of kind "module" or "object" is: its ref, or each of
    the alternatives where branches joined; () when not known."""
    if isinstance(v.ref, tuple):
        return (v.ref,)
    if isinstance(v.ref, Alts):
        return v.ref.options
    return ()


def dict_sure_keys(v: Val) -> frozenset:
    """The keys a dict literal of string keys surely has (``dict_items`` gives every key
    it may have: a join keeps a key either side has, and is sure of those both are)."""
    if v.kind == "container" and isinstance(v.ref, tuple) and v.ref[0] == "dict" and \
            len(v.ref) > 3:
        return v.ref[3]
    return frozenset()


def dict_items(v: Val):
    """For a dict literal of string keys: ``(keys, values)``; for another dict: ``()``;
    for anything else (not known to be a dict): None."""
    if v.kind != "container":
        return None
    if v.ref == "dict":
        return ()
    if isinstance(v.ref, tuple) and v.ref[0] == "dict":
        return v.ref[1], v.ref[2]
    return None


def dict_of_pairs(v: Val) -> Val | None:
    """``dict(v)`` / ``OrderedDict(v)`` when it is known: a copy of a dict of known items,
    or a dict made from a list of ``(key, value)`` pairs of distinct string keys of known
    value (``OrderedDict([("fc", nn.Linear(4, 4)), ("act", nn.ReLU())])``), its keys in
    order; else None."""
    if dict_items(v):
        return v
    pairs = v.elts if v.kind in ("container", "tuple") and v.ref is None else None
    if not pairs or not all(p.kind == "tuple" and p.elts is not None and len(p.elts) == 2 and
                            isinstance(p.elts[0].ref, tuple) and p.elts[0].ref[0] == "str"
                            for p in pairs):
        return None
    keys = tuple(p.elts[0].ref[1] for p in pairs)
    if len(set(keys)) != len(keys):
        return None
    return dict_of(keys, tuple(p.elts[1] for p in pairs))


def dict_of(keys: tuple, vals: tuple, sure: frozenset | None = None) -> Val:
    """A dict of these distinct string keys (in order) and values; ``sure``: the keys it
    surely has (all of them unless given)."""
    return Val("container", frozenset().union(*(x.segs for x in vals)), any(x.leaf for x in vals),
               ("dict", keys, vals, frozenset(keys) if sure is None else sure),
               src=merge_src(list(vals)))


def param_owners(v: Val) -> frozenset | None:
    """The modules whose parameters ``v`` holds, when it holds nothing else: one of
    ``net.parameters()`` (store ``("param", net)``), a list filled from such
    (``("params", modules)``), every parameter of several (``("allparams", modules)``:
    ``list(a.parameters()) + list(b.parameters())``), every parameter of some, picked by
    name (``("picked", modules)``, :mod:`~gradguard.analysis.param_names`), a list or
    tuple of those, an
    optimizer's parameter group
    ``{"params": ..., "lr": ...}``; None when it may hold anything else."""
    st = v.store
    if isinstance(st, tuple) and st[0] == "param" and v.kind in ("tensor", "container"):
        return frozenset({st[1]})
    if isinstance(st, tuple) and st[0] in ("params", "allparams", "picked") and \
            v.kind == "container":
        return st[1]
    items = dict_items(v)
    if items:
        keys, vals = items
        return param_owners(vals[keys.index("params")]) if "params" in keys else None
    if v.kind in ("container", "tuple") and v.elts:
        out = frozenset()
        for e in v.elts:
            o = param_owners(e)
            if o is None:
                return None
            out |= o
        return out
    return None


UNKNOWN = Val()
# the ref of a tensor a model of unknown class returned: its structure is not known (a
# tensor, or a tuple such as ``(loss, count)`` or ``(output, state)``)
MODEL_OUTPUT = "model-output"
# the ref of a part other than the first of such an output unpacked (``loss, count =
# model(batch)``): it may hold the graph (a recurrent state) or be a plain number
MODEL_PART = "model-output-part"
NONE = Val("none")
SCALAR = Val("scalar")


def element_shape(container: Val, added: Val):
    """The ref a list keeps after ``append(added)``: ``("elem", t)`` when every element
    it holds is a tuple of known parts (``data.append((r, prob))``: a loop over it
    unpacks ``r`` and ``prob`` apart), the parts joined, a dict of the same known keys
    (``D.append({"log_prob": lp, "value": v})``), each key's values joined, or the same nn module (one
    constructor call run in each pass of a loop: ``stages.append(Stage(...))``, the
    module that stands for them all); else None."""
    module = added.kind == "module" and bool(module_refs(added))
    if not module and (added.kind != "tuple" or not added.elts) and \
            not _keyed(added):
        return None
    if container.elts == ():  # an empty list literal
        return ("elem", added)
    old = container.ref
    if not (isinstance(old, tuple) and old[0] == "elem"):
        return None
    return _same_shape(old[1], added)


def whole_modules(store) -> tuple:
    """The modules all of whose parameters a storage stands for (``net.parameters()``:
    ``("param", net)``; ``list(a.parameters()) + list(b.parameters())``: ``("allparams",
    {a, b})``), in a stable order; () for any other storage."""
    if isinstance(store, tuple) and store[0] == "param":
        return (store[1],)
    if isinstance(store, tuple) and store[0] == "allparams":
        return tuple(sorted(store[1], key=repr))
    return ()


def flag_modules(store, flag: bool | None) -> tuple:
    """The modules whose parameters setting ``requires_grad`` to ``flag`` on a tensor
    of storage ``store`` sets it on: :func:`whole_modules`, and, unless the flag is
    False, each of the modules the parameters of one of them (``("params", {a, b})``: a
    restore loop over a list of modules) may belong to: they may require grad again."""
    whole = whole_modules(store)
    if whole or flag is False or not (isinstance(store, tuple) and store[0] == "params"):
        return whole
    return tuple(sorted(store[1], key=repr))


def known_object(v: Val) -> bool:
    """A module, or an object of a class of the user's, whose identity is known."""
    return v.kind in ("module", "object") and isinstance(v.ref, tuple)


def list_elements(v: Val) -> tuple | None:
    """The elements of a list: those of known shape, or the one module a list of
    appended modules stands for (``nn.Sequential(*stages)``); else None."""
    if v.elts is not None:
        return v.elts
    if isinstance(v.ref, tuple) and v.ref[0] == "elem" and v.ref[1].kind == "module":
        return (v.ref[1],)
    return None


def _same_shape(a: Val, b: Val):
    """``("elem", a joined with b)`` when both are tuples of as many parts, both known
    nn modules (``layers.append(ActNorm(d)); layers.append(Coupling(d))``: one of them
    stands for each element), or both dicts of known string keys, else None."""
    if a.elts is not None and b.elts is not None and len(a.elts) == len(b.elts) and \
            a.kind == b.kind == "tuple":
        return ("elem", join(a, b))
    if a.kind == b.kind == "module" and module_refs(a) and module_refs(b):
        return ("elem", join(a, b))
    if _keyed(a) and _keyed(b):
        # (keys only some elements have: ``t["adv"] = a`` in a loop over the list, on
        # one path; each key's values from the elements that have it)
        joined = join(a, b)
        return ("elem", joined) if _keyed(joined) else None
    return None


def _keyed(v: Val) -> bool:
    """Whether ``v`` is a dict of known string keys (``{"log_prob": lp, "value": v}``:
    a list of such keeps each key's values apart)."""
    return v.kind == "container" and len(dict_items(v) or ()) == 2


def _join_dicts(a, b, sure: frozenset = frozenset()):
    """The ref of a join of two dict literals of string keys (``return {"loss": loss,
    "log": {...}}`` in two branches): each key's values joined (a key one side lacks has
    the other's), ``sure`` the keys both surely have; None when either is not such a
    dict."""
    if not a or not b:
        return None
    values: dict = {}
    for keys, vals in (a, b):
        for k, v in zip(keys, vals):
            values[k] = join(values[k], v) if k in values else v
    return ("dict", tuple(values), tuple(values.values()), sure)


def _join_shapes(a: Val, b: Val):
    """The element shape of a join of two lists (an empty list literal has any; a list of
    known elements has theirs: ``layers += [A(d), B(d)]`` in a loop, whose passes hold
    lists of different lengths)."""
    shapes = [_shape_of(v) for v in (a, b) if v.elts != ()]
    if None in shapes or not shapes:
        return None
    if len(shapes) == 2:
        return _same_shape(*shapes)
    return ("elem", shapes[0])


def _shape_of(v: Val) -> Val | None:
    """What each element of list ``v`` is (of a list that has some): its ``("elem", ...)``
    shape, or its known elements joined when they are all alike (tuples of as many parts,
    nn modules)."""
    if isinstance(v.ref, tuple) and v.ref[0] == "elem":
        return v.ref[1]
    if not v.elts:
        return None
    shape = v.elts[0]
    for e in v.elts[1:]:
        joined = _same_shape(shape, e)
        if joined is None:
            return None
        shape = joined[1]
    return shape if shape.kind == "module" and module_refs(shape) or \
        shape.kind == "tuple" and shape.elts or _keyed(shape) else None


def join(a: Val, b: Val) -> Val:
    """The least upper bound of two values (may-analysis: union of segments)."""
    if a is b or a == b:
        return a
    if MODEL_PART in (a.ref, b.ref) and all(
            v.ref == MODEL_PART or v.kind in ("scalar", "none") or
            not v.segs and v.kind in ("tuple", "object") for v in (a, b)):
        # (``count = 0`` joined with a part of a model's output that may be a number; an
        # ``info`` tuple of floats one branch's known loss function returned, with what
        # another's unknown one did)
        return Val("unknown", a.segs | b.segs, a.leaf or b.leaf, MODEL_PART)
    if "lazy" in (a.kind, b.kind) and "none" not in (a.kind, b.kind):
        options: list = []
        for v in (a, b):
            for o in v.ref.options if isinstance(v.ref, LazyJoin) else (v,):
                if not any(o == x for x in options):
                    options.append(o)
        return Val("lazy", ref=LazyJoin(tuple(options)))
    if a.kind == "none" or b.kind == "none":
        kind, ref = (b.kind, b.ref) if a.kind == "none" else (a.kind, a.ref)
        if known_scalar(Val(kind, ref=ref)):
            # None or a number, string or bool: its value (and truth) not known
            ref = None
    else:
        kind = a.kind if a.kind == b.kind else "unknown"
        ref = _join_refs(kind, a.ref, b.ref) if kind == a.kind else None
        if ref is None and kind == "container":
            ref = _join_dicts(dict_items(a), dict_items(b),
                              dict_sure_keys(a) & dict_sure_keys(b)) or _join_shapes(a, b)
    elts = None
    if a.elts is not None and b.elts is not None and len(a.elts) == len(b.elts):
        elts = tuple(join(x, y) for x, y in zip(a.elts, b.elts))
    elif a.kind == "none" or b.kind == "none":
        # None or a tuple: where it is the tuple, its elements are these
        elts = b.elts if a.kind == "none" else a.elts
    # a segment stays per element only if no side holds it as a shared one
    shared = (a.segs - a.each) | (b.segs - b.each)
    if a.kind == "none":
        src = b.src
    elif b.kind == "none":
        src = a.src
    elif a.kind == b.kind == "scalar":
        # (a Python number, whatever its history, has no graph: ``total = 0.0`` joined
        # with the ``total += x.item()`` of a loop is known to have none)
        src = merge_src((a, b))
    else:
        # (a Python number on one side adds no graph: ``penalty = 0`` joined with the
        # ``penalty += (g - mean_g).pow(2).sum()`` of gradients that have none)
        src = merge_src((a, b))
    return Val(kind, a.segs | b.segs, a.leaf or b.leaf, ref, elts,
               a.alias if a.alias == b.alias else None,
               a.store if a.store == b.store else b.store if a.kind == "none" else
               a.store if b.kind == "none" else _join_params(a, b) or _join_stores(a, b),
               (a.each | b.each) - shared, src,
               kind != "none" and ("none" in (a.kind, b.kind) or a.nullable or b.nullable))


def known_scalar(v: Val) -> bool:
    """A Python number, string or bool of known value (a join with None forgets the
    value: :func:`join`)."""
    return v.kind == "scalar" and (isinstance(v.ref, bool) or isinstance(v.ref, tuple) and
                                   v.ref[0] in ("int", "str", "float"))


def surely_not_none(v: Val) -> bool:
    """Whether ``v`` is known not to be None: a number, string or bool of known value, a
    tensor an operation made, a tuple, a module or an object of the user's, a function or
    class (a bound method), never joined with None."""
    if v.nullable:
        return False
    return known_scalar(v) or v.kind == "tensor" and made_tensor(v.store) or \
        v.kind == "tuple" or v.kind in ("module", "object", "optimizer") and v.ref is not None \
        or v.kind in ("func", "class") and v.ref is not None


def made_tensor(store) -> bool:
    """Whether ``store`` is the storage of a tensor an operation made (``("t", id)``), or
    a join of such (``("join", a, b, ...)``: one of them on each path)."""
    return isinstance(store, tuple) and store[0] in ("t", "join")


def store_parts(store) -> frozenset:
    """The storages ``store`` may be: the parts of a join, each once; else itself."""
    if isinstance(store, tuple) and store[0] == "join":
        return frozenset().union(*(store_parts(p) for p in store[1:]))
    return frozenset((store,))


def _join_stores(a: Val, b: Val):
    """The storage of a join of two tensors made by operations (``x = layers[k](x)`` in a
    loop, each pass a new tensor): ``("join", a, b, ...)``, one storage on every path, so that
    what is saved of the joined value and then changed in place through it is seen (two
    values joined from the same storages, in the same order, are the same tensor on
    every path); else None."""
    if a.kind == b.kind == "tensor" and made_tensor(a.store) and made_tensor(b.store):
        if a.store == b.store:
            return a.store
        # flat, each storage once, in the order first met: joins of joins (a value
        # joined again with itself pass after pass) do not nest ever deeper
        parts = tuple(dict.fromkeys(_flat_join(a.store) + _flat_join(b.store)))
        return ("join",) + parts
    return None


def _flat_join(store) -> tuple:
    return store[1:] if store[0] == "join" else (store,)


def _join_params(a: Val, b: Val):
    """The store of a join of two lists of gathered parameters (or of one and an empty
    list: the loop that fills it may run zero times): the owners of both; else None."""
    if a.kind != "container" or b.kind != "container":
        return None
    owners = [frozenset() if v.elts == () else param_owners(v) for v in (a, b)]
    if None in owners or not (owners[0] or owners[1]):
        return None
    return ("params", owners[0] | owners[1])


def join_all(vals) -> Val:
    """Join an iterable of values (``NONE`` when empty)."""
    out = None
    for v in vals:
        out = v if out is None else join(out, v)
    return out if out is not None else NONE


def with_segs(v: Val, segs: frozenset[int]) -> Val:
    """``v`` with its segment set replaced."""
    return replace(v, segs=segs)


@dataclass
class Seg:
    """One graph segment: the nodes an operation added at ``node`` in one iteration.

    ``stamp`` identifies the loop iterations (analysis passes) it was created in;
    ``saves`` is False for operations whose backward needs no saved tensor (add, view,
    indexing: a second walk through them raises nothing); ``inputs`` lists, for a module
    call or a binary operation, the argument (operand) expressions and the segments each
    carried, so that a fix can detach the right argument; ``stmt`` is the statement that created it; ``saved``
    lists ``(store, version)`` of the tensors it saved for backward; ``top`` the
    top-level statement it was built in; ``leaves`` the storages of the leaves that
    require grad among its operands (what an optimizer over explicit tensors trains);
    ``parents`` every segment of its operands' histories.
    """

    id: int
    node: cst.CSTNode
    label: str
    stamp: tuple
    saves: bool
    inputs: tuple = ()
    stmt: cst.CSTNode | None = None
    frame: str = "G"
    saved: tuple = ()
    top: cst.CSTNode | None = None
    leaves: frozenset = EMPTY
    parents: frozenset = EMPTY


def heads(segs: frozenset, table: dict) -> frozenset:
    """The segments of the history ``segs`` that no other one of them was built from
    (``table``: segment id -> :class:`Seg`): the operations that made the value itself
    (several after a join of branches). A graph holding one of them holds the value, not
    only a graph it shares (a GAN's `fake` under both losses)."""
    out, covered = set(), set()
    for sid in sorted(segs, reverse=True):  # a segment is built after all its parents
        if sid not in covered:
            out.add(sid)
            covered |= table[sid].parents
    return frozenset(out)


@dataclass(frozen=True)
class Free:
    """Where and when a backward freed a segment.

    ``node``: the backward call; ``stamp``: loop passes at that time; ``stmts``: the
    statement being executed in each frame of the call stack, as ``(frame_id, stmt)``;
    ``steps``: how many parameter updates (optimizer steps) had run before it; ``inner``:
    for a wrapper's backward reported at its call site (``node``: ``self.v.reinforce(loss)``),
    the backward call inside it; ``back``: its index in the interpreter's ``backwards``.
    """

    node: cst.CSTNode
    stamp: tuple
    stmts: tuple
    steps: int
    top: cst.CSTNode | None = None
    inner: cst.CSTNode | None = None
    back: int = -1


@dataclass(frozen=True, eq=False)
class Cond:
    """What a path knows from a test it took: the test (its code ``text``, ``not``
    removed) came out ``truth`` while the names and attributes it reads were bound to
    ``bindings`` (the :class:`Binding` objects, compared by identity: a test is the same
    test only while nothing it reads was bound again; a name that is rebound, or an
    attribute assigned, in between gives a new binding; an attribute of a known object
    that was never assigned is its env key, compared by value). Two branches of ``if
    self.recurrent:`` taken in one pass, or ``if done: ...backward()`` and the next pass
    of ``while not done:``, cannot both hold."""

    text: str
    bindings: tuple
    truth: bool

    def _same_test(self, other: "Cond") -> bool:
        return self.text == other.text and len(self.bindings) == len(other.bindings) and \
            all(a is b or (type(a) is tuple and a == b)
                for a, b in zip(self.bindings, other.bindings))

    def __eq__(self, other) -> bool:
        return isinstance(other, Cond) and self.truth == other.truth and self._same_test(other)

    def __hash__(self) -> int:
        return hash((self.text, self.truth,
                     tuple(b if type(b) is tuple else id(b) for b in self.bindings)))

    def contradicts(self, other: "Cond") -> bool:
        return self.truth != other.truth and self._same_test(other)

    def negated(self) -> "Cond":
        return Cond(self.text, self.bindings, not self.truth)


@dataclass(frozen=True)
class Binding:
    """A name's value and the statement that bound it (for fixes). ``guards``: pairs
    ``(segment id, Cond)``: the value holds that segment only on paths where the test
    came out so (a necessary condition; see :func:`join_states`)."""

    val: Val
    stmt: cst.CSTNode | None = None
    guards: frozenset = EMPTY


class Env(dict):
    """A state's bindings: a dict that knows which of its keys may differ from another
    state's, so that joining two states copied from one another compares only those.

    Envs copied from one another share an ``origin`` (a token for the bindings of one
    env at one moment: the first time it was copied), and each records in ``dirty`` the
    keys written or deleted since that moment. Two envs of the same origin bind every
    key outside both their ``dirty`` sets to the same :class:`Binding` object. An env
    with no origin (built fresh), or of another origin, is compared key by key. Every
    change goes through the methods below (never ``dict.update(env, ...)``)."""

    __slots__ = ("origin", "dirty")
    REBASE = 64
    """Once an env's ``dirty`` holds this many keys and a quarter of the env, a copy of it
    starts a new origin (the two compare cheaply; older copies, key by key)."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.origin = None
        self.dirty: set = set()

    def copy(self) -> "Env":
        dirty = self.dirty
        if self.origin is None or (len(dirty) >= self.REBASE and 4 * len(dirty) >= len(self)):
            self.origin, self.dirty, dirty = object(), set(), ()
        other = Env(self)
        other.origin = self.origin
        other.dirty = set(dirty)
        return other

    def changed(self, other: "Env"):
        """The keys whose bindings in ``other`` may not be this env's: all of
        ``other``'s when the two are of different origins."""
        if other.origin is not None and other.origin is self.origin:
            return self.dirty | other.dirty
        return other.keys()

    def __setitem__(self, key, value) -> None:
        self.dirty.add(key)
        super().__setitem__(key, value)

    def __delitem__(self, key) -> None:
        self.dirty.add(key)
        super().__delitem__(key)

    def pop(self, key, *default):
        self.dirty.add(key)
        return super().pop(key, *default)

    def setdefault(self, key, default=None):
        self.dirty.add(key)
        return super().setdefault(key, default)

    def update(self, *args, **kw) -> None:
        for k, v in dict(*args, **kw).items():
            self[k] = v

    def popitem(self):
        raise TypeError("Env.popitem: not tracked")

    def clear(self) -> None:
        raise TypeError("Env.clear: not tracked")

    def __ior__(self, other):
        self.update(other)
        return self


@dataclass
class State:
    """The abstract state at one program point.

    ``env`` maps keys to bindings: ``(frame_id, name)`` for variables (frame "G" is the
    module), ``("@", object_id, attr)`` for attributes of objects. ``freed`` maps freed
    segment ids to the :class:`Free` that freed them. ``dead`` marks unreachable code
    (after return, break, continue or raise). ``versions`` counts the in-place changes
    of each storage (autograd's version counter). ``partial``: the freed segments that
    some path to this point did not free (a backward in one branch of an ``if``).
    ``guarded``: the env keys whose binding may have ``guards``; ``free_guards``:
    ``(segment id, Cond)`` pairs, a freed segment freed only on paths where the test came
    out so; ``version_guards``: ``(storage, version, Cond)``, a storage changed in place
    beyond that version only on paths where the test came out so.
    """

    env: Env = field(default_factory=Env)
    freed: dict = field(default_factory=dict)
    dead: bool = False
    versions: dict = field(default_factory=dict)
    partial: frozenset = EMPTY
    guarded: frozenset = EMPTY
    free_guards: frozenset = EMPTY
    version_guards: frozenset = EMPTY

    def __post_init__(self):
        if type(self.env) is not Env:
            self.env = Env(self.env)

    def copy(self) -> "State":
        """A copy that can be changed independently."""
        return State(self.env.copy(), dict(self.freed), self.dead, dict(self.versions),
                     self.partial, self.guarded, self.free_guards, self.version_guards)

    def assume(self, cond: "Cond") -> None:
        """Narrow this state to the paths on which ``cond`` holds: segments that values
        hold, and frees, only on paths where the same test came out the other way are
        dropped."""
        env = self.env
        for key in self.guarded:
            b = env.get(key)
            if b is None or not b.guards:
                continue
            drop = frozenset(sid for sid, c in b.guards if c.contradicts(cond))
            if drop:
                env[key] = Binding(_without(b.val, drop), b.stmt,
                                   frozenset(g for g in b.guards if g[0] not in drop))
        drop = frozenset(sid for sid, c in self.free_guards if c.contradicts(cond))
        if drop:
            for sid in drop:
                self.freed.pop(sid, None)
            self.partial = self.partial - drop
            self.free_guards = frozenset(g for g in self.free_guards if g[0] not in drop)
        undone = [g for g in self.version_guards if g[2].contradicts(cond)]
        if undone:
            for store, version, _ in undone:
                self.versions[store] = min(self.versions.get(store, 0), version)
            self.version_guards = self.version_guards - frozenset(undone)


def _without(v: Val, drop: frozenset) -> Val:
    """``v`` (and its elements) without the segments ``drop``."""
    if not (v.segs & drop):
        return v
    return replace(v, segs=v.segs - drop, each=v.each - drop,
                   elts=tuple(_without(e, drop) for e in v.elts) if v.elts else v.elts)


def _merge_guards(a: frozenset, a_segs: frozenset, b: frozenset, b_segs: frozenset) -> frozenset:
    """The guards of a join of two values (or freed sets): a segment only one side holds
    keeps that side's guards; one both hold, the guards both sides have."""
    if not a and not b:
        return EMPTY
    return frozenset(g for g in a if g[0] not in b_segs or g in b) | \
        frozenset(g for g in b if g[0] not in a_segs)


def _path_guards(guards: frozenset, segs, other_segs, cond: "Cond | None") -> frozenset:
    """``guards`` with ``cond`` added for the segments this path holds and the other not."""
    if cond is None:
        return guards
    return guards | frozenset((sid, cond) for sid in segs if sid not in other_segs)


def join_states(states, conds=None) -> State:
    """Join states at a control-flow merge; dead states contribute nothing. When every
    state is dead (both branches of an ``if`` returned), the result is dead and holds the
    join of them all: where the dead end is undone (a call returning to its caller), the
    caller goes on from what the paths to those returns bound and freed.

    ``conds``: for the two branches of a test, the :class:`Cond` each holds under: what
    only one branch's value holds (or only one branch freed) is guarded by that branch's
    condition, so that a later branch on the same test drops it (:meth:`State.assume`)."""
    live = [s for s in states if not s.dead]
    if not live:
        if not states:
            return State(dead=True)
        out = join_states([replace(s, dead=False) for s in states])
        out.dead = True
        return out
    pair = conds if conds is not None and len(live) == 2 else (None, None)
    out = live[0].copy()
    for s in live[1:]:
        _join_into(out, s, *pair)
    return out


def _join_into(out: State, s: State, c_out, c_s) -> None:
    """Join ``s`` into ``out``. For the two branches of a test, ``c_out`` and ``c_s`` are
    the :class:`Cond` each was taken under (else None): what only one branch's value holds
    is guarded by that branch's condition, a binding only one branch made included."""
    env, other = out.env, s.env
    # states copied from one another share most bindings: only the others are joined
    keys = list(env.changed(other))
    if c_out is not None and (other.origin is not env.origin or env.origin is None):
        keys += env.keys() - other.keys()
    track = c_out is not None or out.guarded or s.guarded
    guarded = set()
    for k in keys:
        mine, theirs = env.get(k), other.get(k)
        if mine is theirs or (theirs is None and c_out is None) or \
                (mine is not None and theirs is not None and mine == theirs):
            continue
        g = EMPTY
        if track:
            a_segs = mine.val.segs if mine is not None else EMPTY
            b_segs = theirs.val.segs if theirs is not None else EMPTY
            g = _merge_guards(
                _path_guards(mine.guards, a_segs, b_segs, c_out) if mine else EMPTY, a_segs,
                _path_guards(theirs.guards, b_segs, a_segs, c_s) if theirs else EMPTY, b_segs)
            if g:
                guarded.add(k)
        if mine is None or theirs is None:
            only = theirs if mine is None else mine
            env[k] = Binding(only.val, only.stmt, g) if g != only.guards else only
        else:
            env[k] = Binding(join(mine.val, theirs.val), mine.stmt or theirs.stmt, g)
    if track:
        out.guarded = out.guarded | s.guarded | frozenset(guarded)
    _join_frees(out, s, c_out, c_s)


def _join_frees(out: State, s: State, c_out, c_s) -> None:
    """Join ``s``'s frees, partial frees and versions into ``out`` (guarded by the
    branches' conditions, as :func:`_join_into`)."""
    if s.freed.keys() != out.freed.keys():
        out.partial = out.partial | (s.freed.keys() ^ out.freed.keys())
    if out.free_guards or s.free_guards or c_out is not None:
        out.free_guards = _merge_guards(
            _path_guards(out.free_guards, out.freed, s.freed, c_out), out.freed.keys(),
            _path_guards(s.free_guards, s.freed, out.freed, c_s), s.freed.keys())
    out.partial = out.partial | s.partial
    for k in s.freed.keys() - out.freed.keys():
        out.freed[k] = s.freed[k]
    if out.version_guards or s.version_guards or c_out is not None:
        out.version_guards = _merge_version_guards(out, s, c_out, c_s)
    for k, v in s.versions.items():
        if v > out.versions.get(k, 0):
            out.versions[k] = v


def _merge_version_guards(a: State, b: State, ca, cb) -> frozenset:
    """The version guards of a join of ``a`` and ``b`` (branches under ``ca`` and ``cb``
    when given): a guard ``(storage, version, cond)`` holds of the join when each side
    has it or is at that version or below."""
    mine, theirs = set(a.version_guards), set(b.version_guards)
    if ca is not None:
        # (only the storages whose versions differ: states share most of theirs)
        for store in {k for k, _ in a.versions.items() ^ b.versions.items()}:
            va, vb = a.versions.get(store, 0), b.versions.get(store, 0)
            if va > vb:
                mine.add((store, vb, ca))
            elif vb > va:
                theirs.add((store, va, cb))
    common = mine & theirs
    return frozenset(common) | \
        frozenset(g for g in mine - common if b.versions.get(g[0], 0) <= g[1]) | \
        frozenset(g for g in theirs - common if a.versions.get(g[0], 0) <= g[1])
