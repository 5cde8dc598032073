"""The abstract interpreter: walks libcst statements in execution order over :class:`State`.

It imitates what autograd does at run time (DESIGN.md section 1): operations on values
that require grad create graph segments; ``backward`` / ``autograd.grad`` walk and free
the segments of their root unless ``retain_graph`` (or ``create_graph``) is set; a later
walk through a freed segment that saved tensors raises
``RuntimeError: Trying to backward through the graph a second time``
(torch/csrc/autograd/saved_variable.cpp, ``ERR_BACKWARD_TWICE``).

Loops run twice (the second pass sees what the first freed); branches join; calls of
functions, methods and ``forward`` of classes defined in the same file are interpreted
inline with the caller's argument values (bounded depth and budget). Results are
:class:`Hazard` events; the rules turn them into findings.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace

import libcst as cst

from gradguard.analysis import torchapi as T
from gradguard.analysis.values import (
    EMPTY, NONE, SCALAR, UNKNOWN, Binding, Free, Seg, State, Val, join, join_all,
    join_states,
)

MAX_DEPTH = 8
MAX_STEPS = 60_000
LOOP_PASSES = 2
MAX_LOOP_NESTING = 5


@dataclass
class FuncRef:
    """A function, method or lambda of this file, with the frame it was defined in."""

    node: cst.FunctionDef | cst.Lambda
    frame: str
    cls: "ClassInfo | None" = None
    no_grad: bool = False
    static: bool = False


@dataclass
class ClassInfo:
    """A class of this file: its methods and whether it is an nn.Module."""

    node: cst.ClassDef
    methods: dict
    bases: list
    is_module: bool
    is_optimizer: bool


@dataclass(frozen=True)
class Trained:
    """What an optimizer trains: module names as written and module identities."""

    names: frozenset | None
    refs: frozenset


@dataclass(frozen=True)
class LoopCtx:
    """A loop being analysed: ``key`` identifies it; ``body`` is where a recomputation
    goes (first statement of the loop body, or of a closure's body); ``header`` holds the
    expressions evaluated once per loop entry (a ``for`` iterable)."""

    key: int
    node: cst.CSTNode
    frame: str
    body: cst.CSTNode | None
    header: tuple = ()


@dataclass
class Hazard:
    """A backward (or ``autograd.grad``) that walks segments an earlier backward freed.

    ``kind``: "same" (freed earlier in the same iteration: GG101), "carried" (freed in an
    earlier iteration, created inside the loop: GG102) or "reused" (created before the
    loop, freed in an earlier iteration: GG103). ``loop``: the loop concerned.
    ``segs``: the freed segments walked again; ``frees``: their :class:`Free` records.
    ``root``: the expression backwarded; ``frames``: the analysis frames at the time, as
    ``(frame_id, current statement, function node)``; ``env``/``freed``: the state then;
    ``steps``: parameter updates so far; ``val_segs``: all segments of the root;
    ``loops``: the loops being analysed, outermost first. The finding's site is the last
    frame of ``frames`` (a wrapper that backwards its parameter is reported at its call).
    """

    kind: str
    node: cst.CSTNode
    root: cst.CSTNode | None
    segs: tuple
    frees: tuple
    loop: LoopCtx | None
    frames: tuple
    env: dict
    freed: dict
    steps: int
    val_segs: frozenset
    loops: tuple = ()


@dataclass
class InplaceHazard:
    """A backward that needs a tensor changed in place after a node saved it.

    ``kind``: "param" (module parameters updated: ``optimizer.step()``, ``p.clamp_()``:
    GG201) or "tensor" (GG202). ``node``: the backward as reported (a wrapper's call
    site), ``inner``: the backward call itself; ``seg``: the segment that saved the
    tensor; ``store``: its storage; ``bump``: ``(in-place node, (frame id, stmt) path)``
    of the last in-place change; ``frames``/``env`` as in :class:`Hazard` (up to the reported site);
    ``inner_frames``: all frames at the backward itself.
    """

    kind: str
    node: cst.CSTNode
    inner: cst.CSTNode
    root: cst.CSTNode | None
    seg: object
    store: object
    bump: tuple
    frames: tuple
    env: dict
    inner_frames: tuple = ()


@dataclass
class Accumulation:
    """``acc += t`` / ``acc.append(t)`` in a loop, where ``acc`` outlives the iteration and
    ``t`` carries a graph. ``segs``: the graphs accumulated; ``passes``: the loop passes at
    whose start ``acc`` already existed (so it outlives those iterations); ``eval_mode``: the function had called ``model.eval()`` (an evaluation loop)."""

    node: cst.CSTNode
    acc: cst.CSTNode
    value: cst.CSTNode | None
    segs: frozenset
    passes: frozenset
    eval_mode: bool
    frames: tuple


@dataclass
class DiscardedDetach:
    """An expression statement ``x.detach()``: the detached tensor is thrown away."""

    stmt: cst.SimpleStatementLine
    call: cst.Call
    target: cst.BaseExpression
    loop_target: bool
    func: cst.CSTNode | None


@dataclass
class Frame:
    """One function activation: its env key prefix, function node, lexical parent,
    ``self``, the call that entered it and the arguments' expressions by parameter."""

    id: str
    func: cst.CSTNode | None
    parent: str | None
    call: cst.CSTNode | None = None
    arg_nodes: dict = field(default_factory=dict)
    module_method: bool = False
    eval_mode: bool = False
    top: cst.CSTNode | None = None
    self_obj: Val | None = None
    globals_: set = field(default_factory=set)
    returns: list = field(default_factory=list)
    stmt: cst.CSTNode | None = None
    loops: list = field(default_factory=list)


class _Budget(Exception):
    pass


def dotted(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


def _calls(node: cst.CSTNode):
    """Every Call node inside ``node`` (including itself)."""
    if isinstance(node, cst.Call):
        yield node
    for child in node.children:
        yield from _calls(child)


def _true(node: cst.BaseExpression | None) -> bool | None:
    """The truth of a literal True/False, None for anything else."""
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return node.value == "True"
    return None


class Interpreter:
    """Interprets one file's roots (module code, functions, methods) and collects hazards.

    Use :meth:`run_module`, then :meth:`run_function` for each top-level function and
    method; read :attr:`hazards`, :attr:`detaches` and :attr:`segs`.
    """

    def __init__(self, module: cst.Module, tops: dict | None = None):
        self.module = module
        self.segs: dict[int, Seg] = {}
        self.hazards: list[Hazard] = []
        self.detaches: list[DiscardedDetach] = []
        self.stale_uses: list[tuple] = []
        self.bump_sites: dict = {}
        self.inplace_ctors: dict = {}
        self.inplace_modules: dict = {}
        self.bump_tops: dict = {}
        self.entry_keys: dict = {}
        self.accumulations: dict = {}
        self.consumed: set = set()
        self.passes_with_backward: set = set()
        self.retained_carries: list = []
        self.saved_by: dict = {}
        self.inplace: list = []
        self.submodules: dict = {}
        self._ids = itertools.count(1)
        self.classes: dict[str, ClassInfo] = {}
        self.frames: list[Frame] = []
        self.loop_stack: list[tuple[LoopCtx, int]] = []
        self.no_grad = 0
        self.depth = 0
        self.steps = 0
        self.param_updates = 0
        self.step_log: list[frozenset] = []
        self.state = State()
        self.global_env: dict = {}
        self._seen_hazards: set = set()
        self._seen_detach: set = set()
        self.loop_keys: dict[int, int] = {}
        # top-level statement of each function and method, for position hints
        self.tops: dict[int, cst.CSTNode] = tops if tops is not None else {}
        if tops is None:
            for st in module.body:
                self.tops[id(st)] = st
                if isinstance(st, cst.ClassDef) and isinstance(st.body, cst.IndentedBlock):
                    for m in st.body.body:
                        self.tops[id(m)] = st
        self.event_tops: list = []
        self.inlined: set[int] = set()
        self.pass_loop: dict[int, int] = {}
        self._loop_exits: list = []
        self.elem_copies: dict[tuple[int, int], int] = {}

    # ------------------------------------------------------------------ roots
    def run_module(self) -> None:
        """Interpret the module body (top-level statements, inlining calls)."""
        frame = Frame("G", None, None)
        self.frames = [frame]
        self.state = State()
        try:
            self.exec_block(self.module.body)
        except _Budget:
            pass
        # later roots see the module's names, but not its graphs
        self.global_env = {k: Binding(self._strip(b.val), b.stmt)
                           for k, b in self.state.env.items() if k[0] in ("G", "@")}

    def for_root(self) -> "Interpreter":
        """A fresh interpreter for another root of the same module, starting from what
        :meth:`run_module` left here (module-level names, classes, which objects are
        submodules of which, in-place module constructors) and sharing nothing else, so
        each root's events depend only on the module and that root."""
        other = Interpreter(self.module, self.tops)
        other.global_env = self.global_env
        other.classes = dict(self.classes)
        other.submodules = {k: set(v) for k, v in self.submodules.items()}
        other.inplace_ctors = dict(self.inplace_ctors)
        return other

    def run_function(self, func: cst.FunctionDef, cls: ClassInfo | None) -> None:
        """Interpret one function or method alone, its parameters unknown."""
        self.state = State(dict(self.global_env))
        self.frames = [Frame("G", None, None)]
        self.loop_stack = []
        self.no_grad = 0
        self.steps = 0
        self_val = None
        if cls is not None and not self._is_static(func):
            self_val = self._instantiate(cls, func, run_init=func.name.value != "__init__")
        ref = FuncRef(func, "G", cls, no_grad=self._decorated_no_grad(func))
        try:
            self.call_ref(None, ref, [], {}, self_val, unknown_params=True)
        except _Budget:
            pass

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _strip(v: Val) -> Val:
        """The value without its graph: what a later root may assume about it."""
        if v.kind in ("tensor", "unknown", "tuple", "container", "dist"):
            return Val(v.kind, ref=v.ref)
        return Val(v.kind, EMPTY, v.leaf, v.ref)

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def stamp(self) -> tuple:
        return tuple(p for _, p in self.loop_stack)

    def tick(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise _Budget()

    def new_seg(self, node, label: str, parents: frozenset, saves: bool = True,
                inputs: tuple = (), saved: tuple = ()) -> frozenset:
        """Create a segment at ``node`` depending on ``parents``; returns the new set.
        ``saved`` lists the ``(store, version)`` of the tensors its backward needs."""
        sid = next(self._ids)
        self.segs[sid] = Seg(sid, node, label, self.stamp(), saves, inputs, self.frame.stmt,
                              self.frame.id, saved, self.top())
        for store, _ in saved:
            self.saved_by.setdefault(store, []).append(sid)
        return parents | {sid}

    def fresh_store(self):
        """A new storage identity (the result of an out-of-place operation)."""
        return ("t", next(self._ids))

    def saved_of(self, vals) -> tuple:
        """``(store, version)`` of the tensors among ``vals`` (what a node saves)."""
        versions = self.state.versions
        out = []
        for v in vals:
            for t in (v.elts or ()) if v.kind in ("tuple", "container") else (v,):
                if t.store is not None:
                    out.append((t.store, versions.get(t.store, 0)))
        return tuple(out)

    def op(self, node, label: str, vals, saves=True, inputs: tuple = ()) -> Val:
        """The result of a differentiable operation on ``vals``: a new segment when any
        input requires grad (and grad mode is on), else a plain tensor. ``saves``: True
        (the node saves its inputs), "output" (its result) or False (nothing)."""
        vals = list(vals)
        store = self.fresh_store()
        if self.no_grad or not any(v.grad for v in vals):
            return Val("tensor", store=store)
        parents = frozenset().union(*(v.segs for v in vals))
        if saves == "output":
            saved = ((store, 0),)
        else:
            saved = self.saved_of(vals) if saves else ()
        return Val("tensor", self.new_seg(node, label, parents, bool(saves), inputs, saved),
                   store=store)

    def bump(self, val: Val, node) -> None:
        """An in-place change of ``val``'s storage: bump its version (autograd's
        ``_version``); a node that saved it at an older version fails in backward."""
        st = val.store
        if st is None:
            return
        self.state.versions[st] = self.state.versions.get(st, 0) + 1
        self.bump_sites[st] = (node, tuple((f.id, f.stmt) for f in self.frames))
        self.bump_tops[st] = self.top()
        if st[0] != "param" and self.frame.module_method:
            # inside an nn.Module method: the graph it builds is meant to be backwarded,
            # so changing a tensor a live node saved is a hazard already
            live = {f.id for f in self.frames}
            for sid in self.saved_by.get(st, ()):
                seg = self.segs[sid]
                if seg.frame in live and sid not in self.state.freed and any(
                        s == st and ver < self.state.versions[st] for s, ver in seg.saved):
                    key = (id(node), "inplace", st)
                    if key not in self._seen_hazards:
                        self._seen_hazards.add(key)
                        self.mark()
                        self.inplace.append(InplaceHazard(
                            "tensor", node, node, None, seg, st, self.bump_sites[st],
                            tuple((fr.id, fr.stmt, fr.func) for fr in self.frames),
                            dict(self.state.env)))
                    break

    def _root_key(self, node):
        """The env key of the variable or attribute an accumulator expression lives in
        (``self.history[k]`` -> the key of ``self.history``)."""
        while node is not None:
            key = self.key_of(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
            if key is not None:
                return key
            node = node.value if isinstance(node, (cst.Subscript, cst.Attribute)) else None
        return None

    def _accumulate(self, node, acc_node, val: Val, value_node) -> None:
        """Record ``acc += val`` / ``acc.append(val)`` where ``acc`` outlives the loop
        iteration and ``val`` carries a graph: it keeps that graph alive (GG301/GG303)
        unless a later backward consumes it."""
        if not val.segs or not self.loop_stack or self.no_grad or \
                isinstance(value_node, cst.IfExp):
            return
        key = self._root_key(acc_node)
        ctx, pass_id = self.loop_stack[-1]
        if key is None or key not in self.entry_keys.get(pass_id, ()):
            return
        self.mark()
        rec = self.accumulations.get(id(node))
        passes = frozenset(p for _, p in self.loop_stack if key in self.entry_keys.get(p, ()))
        if rec is None:
            self.accumulations[id(node)] = Accumulation(
                node, acc_node, value_node, val.segs, passes, self.frame.eval_mode,
                tuple((f.id, f.stmt, f.func) for f in self.frames))
        else:
            rec.segs |= val.segs
            rec.passes |= passes
            rec.eval_mode = rec.eval_mode or self.frame.eval_mode

    def in_place(self, node, target: Val, others) -> Val:
        """An in-place operation on ``target`` with ``others`` as operands: the result is
        the same storage, one version newer, with the operands' graphs added."""
        res = self.op(node, "in-place", [target] + list(others), saves=False)
        self.bump(target, node)
        return Val("tensor", res.segs, target.leaf, None, None, None, target.store)

    # env -------------------------------------------------------------------
    def lookup_key(self, name: str):
        env = self.state.env
        fid = self.frame.id
        if name in self.frame.globals_:
            return ("G", name)
        frames_by_id = {f.id: f for f in self.frames}
        cur = self.frame
        while cur is not None:
            key = (cur.id, name)
            if key in env:
                return key
            cur = frames_by_id.get(cur.parent) if cur.parent else None
        if (fid, name) in env:
            return (fid, name)
        return ("G", name) if ("G", name) in env else None

    def read_name(self, name: str) -> Val:
        key = self.lookup_key(name)
        if key is None:
            return UNKNOWN
        return self.state.env[key].val

    def bind(self, name: str, val: Val, stmt=None) -> None:
        fid = "G" if name in self.frame.globals_ else self.frame.id
        self.state.env[(fid, name)] = Binding(val, stmt if stmt is not None else self.frame.stmt)

    def key_of(self, node: cst.BaseExpression):
        """The env key an assignable expression denotes (Name or attribute of an object)."""
        if isinstance(node, cst.Name):
            return self.lookup_key(node.value) or (self.frame.id, node.value)
        if isinstance(node, cst.Attribute):
            base = self.eval(node.value)
            if base.kind in ("object", "module") and base.ref is not None and \
                    not isinstance(base.ref, str):
                return ("@", base.ref, node.attr.value)
        return None

    def store(self, target: cst.BaseExpression, val: Val, stmt=None) -> None:
        """Assign ``val`` to an assignment target (names, attributes, tuples, subscripts)."""
        stmt = stmt if stmt is not None else self.frame.stmt
        if isinstance(target, cst.Name):
            self.bind(target.value, val, stmt)
        elif isinstance(target, (cst.Tuple, cst.List)):
            elts = [e.value for e in target.elements]
            if val.elts is not None and len(val.elts) == len(elts) and \
                    not any(isinstance(e, cst.StarredElement) for e in target.elements):
                for e, v in zip(elts, val.elts):
                    self.store(e, v, stmt)
            else:
                item = self._element(val)
                for e in elts:
                    self.store(e, item, stmt)
        elif isinstance(target, cst.Attribute):
            base = self.eval(target.value)
            if base.kind in ("object", "module") and base.ref is not None and \
                    not isinstance(base.ref, str):
                self.state.env[("@", base.ref, target.attr.value)] = Binding(val, stmt)
                if val.kind == "module" and isinstance(val.ref, tuple):
                    self.submodules.setdefault(base.ref, set()).add(val.ref)
            elif isinstance(target.value, cst.Name) and base.kind == "unknown":
                # attributes on an unknown object: give it an identity from now on
                obj = Val("object", ref=("anon", target.value.value, self.frame.id))
                self.bind(target.value.value, obj)
                self.state.env[("@", obj.ref, target.attr.value)] = Binding(val, stmt)
        elif isinstance(target, cst.Subscript):
            key = self.key_of(target.value)
            base = self.eval(target.value)
            if base.kind == "tensor" and base.store is not None:
                res = self.in_place(target, base, [val])
                if key is not None:
                    self.state.env[key] = Binding(res, self.state.env[key].stmt
                                                  if key in self.state.env else stmt)
            elif key is not None and key in self.state.env:
                old = self.state.env[key]
                if old.val.kind in ("container", "tuple", "unknown", "none"):
                    self._accumulate(target, target.value, val, None)
                    merged = join(old.val, val)
                    self.state.env[key] = Binding(Val("container", merged.segs, merged.leaf),
                                                  old.stmt)
        elif isinstance(target, cst.StarredElement):
            self.store(target.value, val, stmt)

    def _element(self, container: Val) -> Val:
        """What iterating over / indexing a container gives (elements joined)."""
        if container.elts:
            return join_all(container.elts)
        if container.kind in ("container", "tuple"):
            kind = "tensor" if container.segs or container.store is not None else "unknown"
            return Val(kind, container.segs, container.leaf, store=container.store)
        return Val(container.kind if container.kind == "tensor" else "unknown",
                   container.segs, container.leaf, store=container.store)

    # ------------------------------------------------------------ statements
    def exec_block(self, stmts) -> None:
        for stmt in stmts:
            if self.state.dead:
                return
            self.exec_stmt(stmt)

    def top(self) -> cst.CSTNode | None:
        """The top-level statement the innermost frame is executing (or defined in)."""
        for fr in reversed(self.frames):
            node = fr.func if fr.func is not None else fr.top
            st = self.tops.get(id(node)) if node is not None else None
            if st is not None:
                return st
        return None

    def mark(self) -> None:
        """Remember the current top-level statement: an event points into it."""
        st = self.top()
        if st is not None and st not in self.event_tops:
            self.event_tops.append(st)

    def exec_stmt(self, stmt: cst.CSTNode) -> None:
        self.tick()
        frame = self.frame
        if frame.id == "G" and id(stmt) in self.tops:
            frame.top = stmt
        prev = frame.stmt
        frame.stmt = stmt
        try:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if self.state.dead:
                        break
                    self.exec_small(small, stmt)
            elif isinstance(stmt, cst.If):
                self.exec_if(stmt)
            elif isinstance(stmt, cst.For):
                self.exec_loop(stmt)
            elif isinstance(stmt, cst.While):
                self.exec_loop(stmt)
            elif isinstance(stmt, cst.With):
                self.exec_with(stmt)
            elif isinstance(stmt, cst.Try) or type(stmt).__name__ == "TryStar":
                self.exec_try(stmt)
            elif isinstance(stmt, cst.FunctionDef):
                self.bind(stmt.name.value, Val("func", ref=FuncRef(
                    stmt, frame.id, no_grad=self._decorated_no_grad(stmt))), stmt)
            elif isinstance(stmt, cst.ClassDef):
                info = self.class_info(stmt)
                self.bind(stmt.name.value, Val("class", ref=info), stmt)
            elif isinstance(stmt, cst.Match):
                entry = self.state
                outs = []
                for case in stmt.cases:
                    self.state = entry.copy()
                    self.exec_block(case.body.body)
                    outs.append(self.state)
                self.state = join_states(outs + [entry])
        finally:
            frame.stmt = prev

    def exec_small(self, small: cst.BaseSmallStatement, line: cst.SimpleStatementLine) -> None:
        if isinstance(small, cst.Assign):
            val = self.eval(small.value)
            for t in small.targets:
                self.store(t.target, val, line)
        elif isinstance(small, cst.AnnAssign):
            if small.value is not None:
                self.store(small.target, self.eval(small.value), line)
        elif isinstance(small, cst.AugAssign):
            cur = self.eval(small.target)
            rhs = self.eval(small.value)
            op = type(small.operator).__name__
            saves = not op.startswith(("Add", "Subtract"))
            if cur.kind in ("container", "tuple") and op.startswith("Add"):
                res = Val("container", cur.segs | rhs.segs, cur.leaf or rhs.leaf)
            elif cur.kind == "tensor" and cur.store is not None:
                res = self.in_place(small, cur, [rhs])
            else:
                if cur.kind in ("scalar", "unknown", "none", "tensor"):
                    self._accumulate(small, small.target, rhs, small.value)
                res = self.op(small, dotted(small.target) or "value", [cur, rhs], saves)
            self.store(small.target, res, line)
        elif isinstance(small, cst.Expr):
            self._expr_statement(small, line)
        elif isinstance(small, cst.Return):
            val = self.eval(small.value) if small.value is not None else NONE
            self.frame.returns.append(val)
            self.state.dead = True
        elif isinstance(small, (cst.Break, cst.Continue)):
            ctx = self._loop_exits[-1] if self._loop_exits else None
            if ctx is not None:
                ctx["break" if isinstance(small, cst.Break) else "continue"].append(
                    self.state.copy())
            self.state.dead = True
        elif isinstance(small, cst.Raise):
            if small.exc is not None:
                self.eval(small.exc)
            self.state.dead = True
        elif isinstance(small, (cst.Global, cst.Nonlocal)):
            if isinstance(small, cst.Global):
                self.frame.globals_.update(n.name.value for n in small.names)
        elif isinstance(small, cst.Import):
            for alias in small.names:
                path = dotted(alias.name)
                if alias.asname is not None:
                    self.bind(alias.asname.name.value, Val("ns", ref=path))
                else:
                    top = path.split(".")[0]
                    self.bind(top, Val("ns", ref=top))
        elif isinstance(small, cst.ImportFrom):
            mod = dotted(small.module) if small.module is not None else ""
            if not isinstance(small.names, cst.ImportStar):
                for alias in small.names:
                    name = dotted(alias.name)
                    local = alias.asname.name.value if alias.asname else name
                    self.bind(local, Val("ns", ref=f"{mod}.{name}" if mod else name))
        elif isinstance(small, cst.Del):
            self._delete(small.target)
        elif isinstance(small, cst.Assert):
            self.eval(small.test)

    def _delete(self, target) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for e in target.elements:
                self._delete(e.value)
        elif isinstance(target, cst.Subscript):
            key = self.key_of(target.value)
            sl = target.slice
            if key is not None and key in self.state.env and len(sl) == 1 and \
                    isinstance(sl[0].slice, cst.Slice) and sl[0].slice.lower is None and \
                    sl[0].slice.upper is None:
                old = self.state.env[key]
                self.state.env[key] = Binding(Val("container"), old.stmt)
        else:
            key = self.key_of(target)
            if key is not None:
                self.state.env.pop(key, None)

    def _expr_statement(self, small: cst.Expr, line) -> None:
        expr = small.value
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and \
                expr.func.attr.value == "detach" and not expr.args:
            recv = self.eval(expr.func.value)
            loop_target = recv.alias is not None or self._is_loop_target(expr.func.value)
            # an object of this file may define its own detach(); an unknown plain name
            # may be one of those objects
            own = any("detach" in c.methods for c in self.classes.values())
            tensor_like = recv.kind == "tensor" or (
                recv.kind == "unknown" and (loop_target or not own or
                                            not isinstance(expr.func.value, cst.Name)))
            if tensor_like:
                if id(line) not in self._seen_detach:
                    self._seen_detach.add(id(line))
                    self.mark()
                    self.detaches.append(DiscardedDetach(
                        line, expr, expr.func.value, loop_target, self.frame.func))
                return
        self.eval(expr)

    def _is_loop_target(self, node) -> bool:
        if not isinstance(node, cst.Name):
            return False
        key = self.lookup_key(node.value)
        b = self.state.env.get(key) if key else None
        return b is not None and isinstance(b.stmt, (cst.For, cst.CompFor))

    @staticmethod
    def truth(v: Val) -> bool | None:
        """The truth value of a known constant (True/False/None), else None."""
        if v.kind == "none":
            return False
        if v.kind == "scalar" and isinstance(v.ref, bool):
            return v.ref
        return None

    def exec_if(self, stmt: cst.If) -> None:
        known = self.truth(self.eval(stmt.test))
        if known is True:
            self.exec_block(stmt.body.body)
            return
        if known is False:
            if isinstance(stmt.orelse, cst.If):
                self.exec_stmt(stmt.orelse)
            elif isinstance(stmt.orelse, cst.Else):
                self.exec_block(stmt.orelse.body.body)
            return
        entry = self.state
        self.state = entry.copy()
        self._refine(stmt.test, True)
        self.exec_block(stmt.body.body)
        then = self.state
        self.state = entry.copy()
        self._refine(stmt.test, False)
        if isinstance(stmt.orelse, cst.If):
            self.exec_stmt(stmt.orelse)
        elif isinstance(stmt.orelse, cst.Else):
            self.exec_block(stmt.orelse.body.body)
        self.state = join_states([then, self.state])

    def _refine(self, test, truth: bool) -> None:
        """Narrow ``x is None`` / ``x is not None`` tests in the branch they guard."""
        if isinstance(test, cst.BooleanOperation) and truth and \
                isinstance(test.operator, cst.And):
            self._refine(test.left, True)
            self._refine(test.right, True)
            return
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            self._refine(test.expression, not truth)
            return
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
            comp = test.comparisons[0]
            if isinstance(comp.comparator, cst.Name) and comp.comparator.value == "None":
                is_none = isinstance(comp.operator, cst.Is) == truth
                if isinstance(comp.operator, (cst.Is, cst.IsNot)) and is_none:
                    key = self.key_of(test.left)
                    if key is not None and key in self.state.env:
                        self.state.env[key] = Binding(NONE, self.state.env[key].stmt)

    def exec_loop(self, stmt) -> None:
        is_for = isinstance(stmt, cst.For)
        header = ()
        if is_for:
            it = self.eval(stmt.iter)
            item = self._element(it)
            alias = self.key_of(stmt.iter) if isinstance(stmt.iter, (cst.Name, cst.Attribute)) \
                else None
            if alias is not None:
                item = Val(item.kind, item.segs, item.leaf, item.ref, item.elts, alias)
            header = (stmt.iter,)
        body = stmt.body.body
        ctx = LoopCtx(self._loop_key(stmt), stmt, self.frame.id,
                      body[0] if body else None, header)
        passes = itertools.count()
        ends = self._run_loop(ctx, lambda: self._loop_body(
            stmt, is_for, self._nth_element(item, it.each, next(passes)) if is_for else None))
        alias = item.alias if is_for else None
        if alias is not None and alias in self.state.env and all(
                alias in e.env and not e.env[alias].val.segs for e in ends if not e.dead):
            # every iteration detached the elements in place; zero iterations means the
            # container was empty: either way no element keeps a graph
            old = self.state.env[alias]
            self.state.env[alias] = Binding(Val(old.val.kind, EMPTY, False, old.val.ref,
                                                old.val.elts and tuple(e.cut() for e in old.val.elts)),
                                            old.stmt)
        if stmt.orelse is not None and not self.state.dead:
            self.exec_block(stmt.orelse.body.body)

    def _nth_element(self, item: Val, each: frozenset, k: int) -> Val:
        """The element pass ``k`` of a loop gets from a container whose ``each`` segments
        are a different graph in each element: pass 0 the segments themselves, a later
        pass a copy of them, the same copy whenever the container is iterated again (its
        first element is the same tensor the next time round)."""
        own = each & item.segs
        if not k or not own:
            return item
        copies = set()
        for sid in own:
            cid = self.elem_copies.get((sid, k))
            if cid is None:
                cid = self.elem_copies[(sid, k)] = next(self._ids)
                self.segs[cid] = seg = replace(self.segs[sid], id=cid)
                for store, _ in seg.saved:
                    self.saved_by.setdefault(store, []).append(cid)
            copies.add(cid)
        return replace(item, segs=(item.segs - own) | copies)

    def _loop_key(self, node) -> int:
        return self.loop_keys.setdefault(id(node), len(self.loop_keys) + 1)

    def _loop_body(self, stmt, is_for: bool, item: Val | None) -> None:
        if is_for:
            self.store(stmt.target, item, stmt)
        else:
            self.eval(stmt.test)
        self.exec_block(stmt.body.body)

    def _run_loop(self, ctx: LoopCtx, body) -> list:
        """Run ``body`` for LOOP_PASSES passes; exits are the entry state (zero
        iterations), each pass's end and every ``break``. Returns the passes' end states."""
        entry = self.state
        outs = [entry]
        ends = []
        head = entry
        saved_exits = self._loop_exits
        self._loop_exits = list(saved_exits)
        # loops nested deeper than MAX_LOOP_NESTING run once: passes multiply with depth
        passes = LOOP_PASSES if len(self.loop_stack) < MAX_LOOP_NESTING else 1
        for _ in range(passes):
            self.state = head.copy()
            exits = {"break": [], "continue": []}
            self._loop_exits.append(exits)
            pass_id = next(self._ids)
            self.pass_loop[pass_id] = ctx.key
            self.loop_stack.append((ctx, pass_id))
            self.entry_keys[pass_id] = frozenset(self.state.env)
            try:
                body()
            finally:
                self.loop_stack.pop()
                self._loop_exits.pop()
            end = join_states([self.state] + exits["continue"])
            outs.extend(exits["break"])
            outs.append(end)
            ends.append(end)
            head = join_states([entry, end])
        self._loop_exits = saved_exits
        self.state = join_states(outs)
        return ends

    def exec_with(self, stmt: cst.With) -> None:
        grad_off = 0
        grad_on = False
        for item in stmt.items:
            v = self.eval(item.item)
            kind = self._grad_context(item.item)
            if kind == "off":
                grad_off += 1
            elif kind == "on":
                grad_on = True
            if item.asname is not None:
                self.store(item.asname.name, v)
        saved = self.no_grad
        self.no_grad = 0 if grad_on else self.no_grad + grad_off
        try:
            self.exec_block(stmt.body.body)
        finally:
            self.no_grad = saved

    def _grad_context(self, expr) -> str | None:
        """"off" for no_grad()/inference_mode()/set_grad_enabled(False), "on" for
        enable_grad()/set_grad_enabled(True), else None."""
        if not isinstance(expr, cst.Call):
            return None
        path = self._path_of(expr.func)
        if path is None:
            return None
        name = path.rsplit(".", 1)[-1]
        if name in T.NO_GRAD_CONTEXTS:
            if name == "inference_mode" and expr.args and _true(expr.args[0].value) is False:
                return None
            return "off"
        if name == "enable_grad":
            return "on"
        if name == "set_grad_enabled" and expr.args:
            flag = _true(expr.args[0].value)
            return None if flag is None else ("on" if flag else "off")
        return None

    def _path_of(self, func) -> str | None:
        """The dotted torch path of a callee (``torch.no_grad``), resolving imports."""
        name = dotted(func)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        v = self.read_name(head)
        if v.kind == "ns" and isinstance(v.ref, str):
            return v.ref + ("." + rest if rest else "")
        return name

    def exec_try(self, stmt) -> None:
        entry = self.state
        self.state = entry.copy()
        self.exec_block(stmt.body.body)
        body_end = self.state
        if stmt.orelse is not None:
            self.exec_block(stmt.orelse.body.body)
        outs = [self.state]
        for h in stmt.handlers:
            self.state = join_states([entry, body_end]) if not body_end.dead else entry.copy()
            self.state.dead = False
            self.exec_block(h.body.body)
            outs.append(self.state)
        self.state = join_states(outs)
        if stmt.finalbody is not None:
            dead = self.state.dead
            self.state.dead = False
            self.exec_block(stmt.finalbody.body.body)
            self.state.dead = self.state.dead or dead

    # ----------------------------------------------------------- expressions
    def eval(self, node) -> Val:
        """The abstract value of an expression (and its effects on the state)."""
        if node is None:
            return NONE
        if isinstance(node, cst.Name):
            if node.value == "None":
                return NONE
            if node.value in ("True", "False"):
                return Val("scalar", ref=node.value == "True")
            return self.read_name(node.value)
        if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString,
                             cst.ConcatenatedString, cst.FormattedString)):
            if isinstance(node, cst.FormattedString):
                for part in node.parts:
                    if isinstance(part, cst.FormattedStringExpression):
                        self.eval(part.expression)
            return SCALAR
        if isinstance(node, cst.Attribute):
            return self.eval_attribute(node)
        if isinstance(node, cst.Call):
            return self.eval_call(node)
        if isinstance(node, cst.BinaryOperation):
            left, right = self.eval(node.left), self.eval(node.right)
            op = type(node.operator).__name__
            saves = op not in ("Add", "Subtract")
            if left.kind in ("container", "tuple") and op == "Add":
                return Val("container", left.segs | right.segs, left.leaf or right.leaf)
            return self.op(node, "", [left, right], saves)
        if isinstance(node, cst.UnaryOperation):
            v = self.eval(node.expression)
            if isinstance(node.operator, cst.Not):
                known = self.truth(v)
                return SCALAR if known is None else Val("scalar", ref=not known)
            return self.op(node, "", [v], saves=False)
        if isinstance(node, cst.Comparison):
            self.eval(node.left)
            for c in node.comparisons:
                self.eval(c.comparator)
            return Val("tensor")
        if isinstance(node, cst.BooleanOperation):
            left = self.eval(node.left)
            known = self.truth(left)
            if known is not None and known == isinstance(node.operator, cst.Or):
                return left
            right = self.eval(node.right)
            if known is not None:
                return right
            return join(left, right)
        if isinstance(node, cst.IfExp):
            self.eval(node.test)
            return join(self.eval(node.body), self.eval(node.orelse))
        if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
            vals = [self.eval(e.value) for e in node.elements]
            segs = frozenset().union(*(v.segs for v in vals)) if vals else EMPTY
            starred = any(isinstance(e, cst.StarredElement) for e in node.elements)
            return Val("tuple" if isinstance(node, cst.Tuple) else "container", segs,
                       any(v.leaf for v in vals), None, None if starred else tuple(vals))
        if isinstance(node, cst.Dict):
            vals = []
            for e in node.elements:
                if isinstance(e, cst.DictElement):
                    self.eval(e.key)
                vals.append(self.eval(e.value))
            segs = frozenset().union(*(v.segs for v in vals)) if vals else EMPTY
            return Val("container", segs, any(v.leaf for v in vals))
        if isinstance(node, cst.Subscript):
            return self.eval_subscript(node)
        if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            return self.eval_comprehension(node)
        if isinstance(node, cst.Lambda):
            return Val("func", ref=FuncRef(node, self.frame.id))
        if isinstance(node, cst.NamedExpr):
            v = self.eval(node.value)
            self.store(node.target, v)
            return v
        if isinstance(node, (cst.StarredElement, cst.Await)):
            return self.eval(node.value if hasattr(node, "value") else node.expression)
        if isinstance(node, cst.Yield):
            if node.value is not None and isinstance(node.value, cst.BaseExpression):
                self.frame.returns.append(self.eval(node.value))
            return UNKNOWN
        return UNKNOWN

    def eval_attribute(self, node: cst.Attribute) -> Val:
        base = self.eval(node.value)
        attr = node.attr.value
        if base.kind == "ns":
            return Val("ns", ref=f"{base.ref}.{attr}")
        if base.kind in ("object", "module") and base.ref is not None and \
                not isinstance(base.ref, str):
            b = self.state.env.get(("@", base.ref, attr))
            if b is not None:
                return b.val
            info = self._class_of(base)
            if info is not None:
                m = self._method(info, attr)
                if m is not None:
                    return Val("func", ref=FuncRef(m, "G", info))
            if base.kind == "module":
                if attr in ("weight", "bias"):
                    return Val("tensor", leaf=not self.no_grad)
                return Val("module") if attr not in T.CUT_ATTRIBUTES else UNKNOWN
            return UNKNOWN
        if base.kind == "module":
            if attr in ("weight", "bias"):
                return Val("tensor", leaf=True)
            return Val("module") if attr not in T.CUT_ATTRIBUTES else UNKNOWN
        if attr in T.CUT_ATTRIBUTES:
            return Val("tensor") if attr in ("data", "grad") else SCALAR
        if base.grad:
            if attr in ("T", "mT", "H", "real", "imag"):
                return self.op(node, attr, [base], saves=False)
            if base.kind == "dist":
                return self.op(node, attr, [base])
        return UNKNOWN if not base.segs else Val("unknown", base.segs, base.leaf)

    def eval_subscript(self, node: cst.Subscript) -> Val:
        base = self.eval(node.value)
        index_vals = []
        for el in node.slice:
            if isinstance(el.slice, cst.Index):
                index_vals.append(self.eval(el.slice.value))
            else:
                for part in (el.slice.lower, el.slice.upper, el.slice.step):
                    if part is not None:
                        self.eval(part)
        if base.elts is not None and len(node.slice) == 1 and \
                isinstance(node.slice[0].slice, cst.Index) and \
                isinstance(node.slice[0].slice.value, cst.Integer):
            i = int(node.slice[0].slice.value.value, 0)
            if -len(base.elts) <= i < len(base.elts):
                return base.elts[i]
        if base.kind in ("container", "tuple", "unknown", "object"):
            return self._element(base)
        if base.kind == "tensor" and base.grad:
            return self.op(node, "", [base], saves=False)
        return self._element(base)

    def eval_comprehension(self, node) -> Val:
        entry_keys = set(self.state.env)
        for comp in self._comp_fors(node.for_in):
            it = self.eval(comp.iter)
            self.store(comp.target, self._element(it), comp)
            for cond in comp.ifs:
                self.eval(cond.test)
        start = next(self._ids)
        if isinstance(node, cst.DictComp):
            self.eval(node.key)
            v = self.eval(node.value)
        else:
            v = self.eval(node.elt)
        for k in set(self.state.env) - entry_keys:
            if k[0] == self.frame.id:
                del self.state.env[k]
        # the element expression runs once per element: the segments it creates are a
        # new graph in each element, unless something that outlives it holds them
        each = frozenset(s for s in v.segs if s > start and s not in self.elem_copies.values())
        for b in self.state.env.values() if each else ():
            each -= b.val.segs
        return Val("container", v.segs, v.leaf, each=each)

    @staticmethod
    def _comp_fors(comp):
        while comp is not None:
            yield comp
            comp = comp.inner_for_in

    # ------------------------------------------------------------------ calls
    def _args(self, call: cst.Call):
        pos, kw = [], {}
        for a in call.args:
            v = self.eval(a.value)
            if a.keyword is not None:
                kw[a.keyword.value] = (v, a.value)
            elif a.star:
                pos.append((Val("unknown", v.segs, v.leaf), a.value))
            else:
                pos.append((v, a.value))
        return pos, kw

    def eval_call(self, call: cst.Call) -> Val:
        func = call.func
        if isinstance(func, cst.Attribute):
            return self.eval_method_call(call, func)
        callee = self.eval(func)
        pos, kw = self._args(call)
        return self.apply(call, callee, pos, kw, func)

    def apply(self, call, callee: Val, pos, kw, func_node) -> Val:
        """Call ``callee`` with evaluated arguments."""
        vals = [v for v, _ in pos] + [v for v, _ in kw.values()]
        if callee.kind == "func":
            return self.call_ref(call, callee.ref, pos, kw, None)
        if callee.kind == "class":
            return self._construct(call, callee.ref, pos, kw)
        if callee.kind == "ns":
            return self.call_path(call, callee.ref, pos, kw)
        if callee.kind in ("module", "object"):
            info = self._class_of(callee)
            if info is not None:
                fwd = self._method(info, "forward" if info.is_module else "__call__")
                if fwd is not None:
                    res = self.call_ref(call, FuncRef(fwd, "G", info), pos, kw, callee)
                    return res
            if callee.kind == "module":
                return self.module_call(call, callee, pos)
            return self._propagate(vals)
        if callee.kind == "unknown" and isinstance(func_node, cst.Name):
            key = self.lookup_key(func_node.value)
            if key is not None and key[0] != "G":
                # a callable held in a local variable or parameter: a model
                return self.module_call(call, Val("module"), pos)
            if key is None and func_node.value in T.CUT_BUILTINS:
                return SCALAR
            if func_node.value in ("list", "tuple", "sorted", "reversed", "set", "iter"):
                v = join_all(vals) if vals else NONE
                return Val("container", v.segs, v.leaf,
                           elts=vals[0].elts if len(vals) == 1 and vals[0].elts else None,
                           each=v.each)
            if func_node.value in ("zip", "enumerate", "map", "filter", "dict"):
                v = join_all(vals) if vals else NONE
                return Val("container", v.segs, v.leaf, each=v.each)
            if func_node.value == "super":
                return self.frame.self_obj or UNKNOWN
            if func_node.value in ("sum", "min", "max", "abs", "next", "getattr"):
                return self._propagate(vals)
        return self._propagate(vals)

    def _propagate(self, vals) -> Val:
        """An unknown call: its result depends on its arguments, no new graph."""
        vals = [v for v in vals if v.kind not in ("module", "func", "class", "ns")]
        segs = frozenset().union(*(v.segs for v in vals)) if vals else EMPTY
        leaf = any(v.leaf for v in vals)
        if self.no_grad:
            return UNKNOWN
        return Val("unknown", segs, leaf) if segs or leaf else UNKNOWN

    def module_call(self, call, callee: Val, pos) -> Val:
        """Calling an nn.Module (or a model-like callable): its forward builds a graph
        from its parameters and saves its inputs and parameters; recurrent modules return
        ``(output, hidden)``; ``ReLU(inplace=True)`` and the like change their input."""
        self._note_stale(pos)
        ref = callee.ref if isinstance(callee.ref, tuple) else None
        name = ref[1] if ref is not None and ref[0] == "nn" else None
        if name is not None and ref[3] and pos:
            # an in-place activation: same storage, one version newer
            v = pos[0][0]
            if v.store is not None:
                self.inplace_modules[id(call)] = self.inplace_ctors.get(ref)
                return self.in_place(call, v, [])
        if self.no_grad:
            return Val("tensor", store=self.fresh_store())
        inputs = tuple((node, v.segs) for v, node in pos
                       if isinstance(node, (cst.Name, cst.Attribute, cst.Subscript)) and v.segs)
        parents = frozenset().union(*(v.segs for v, _ in pos)) if pos else EMPTY
        if name is not None and name.endswith("Loss") and not any(v.grad for v, _ in pos):
            return Val("tensor", store=self.fresh_store())
        saved = self.saved_of([v for v, _ in pos])
        if ref is not None:
            saved += ((("param", ref), self.state.versions.get(("param", ref), 0)),)
        segs = self.new_seg(call, dotted(call.func) or "model", parents, True, inputs, saved)
        out = Val("tensor", segs, store=self.fresh_store())
        rec = T.RECURRENT_MODULES.get(name) if name else None
        if rec == "tensor":
            return Val("tuple", segs, elts=(out, out))
        if rec == "tuple":
            return Val("tuple", segs, elts=(out, Val("tuple", segs, elts=(out, out))))
        return out

    def _note_stale(self, pos) -> None:
        """Record arguments (plain names) whose graph a backward already freed: the place
        a stale tensor re-enters a computation, as ``(name node, freed segs, frame id)``."""
        freed = self.state.freed
        for v, node in pos:
            if isinstance(node, cst.Name) and v.segs:
                hit = frozenset(s for s in v.segs if s in freed)
                if hit:
                    self.stale_uses.append((node, hit, self.frame.id))

    def call_path(self, call, path: str, pos, kw) -> Val:
        """A call of an imported name (torch API or another library)."""
        parts = path.split(".")
        name = parts[-1]
        vals = [v for v, _ in pos] + [v for v, _ in kw.values()]
        if path in ("torch.autograd.backward", "torch.autograd.grad") or \
                (len(parts) >= 2 and parts[-2] == "autograd" and name in ("backward", "grad")):
            api = "autograd.grad" if name == "grad" else "autograd.backward"
            root = kw.get("outputs" if name == "grad" else "tensors") or (pos[0] if pos else None)
            if root is not None:
                self.backward(call, root[0], root[1], api, pos, kw)
                create = kw.get("create_graph") or (pos[4] if len(pos) > 4 else None)
                if name == "grad" and create is not None and _true(create[1]) is not False:
                    # create_graph=True: the gradients are differentiable functions of
                    # the graph they came from (double backward)
                    return Val("tuple", self.op(call, "grad", [root[0]]).segs)
            return Val("tuple") if name == "grad" else NONE
        if parts[0] != "torch":
            if name in T.OPTIMIZER_SUFFIXES:
                return Val("optimizer")
            return self._propagate(vals)
        if len(parts) >= 3 and parts[1] == "nn" and parts[2] not in ("functional", "utils", "init") \
                and name[:1].isupper():
            if name in T.LEAF_CONSTRUCTORS:
                return Val("tensor", leaf=not self.no_grad)
            inplace = kw.get("inplace")
            flag = name in T.INPLACE_MODULES and (
                (inplace is not None and _true(inplace[1]) is True) or
                any(_true(n) is True for _, n in pos))
            ref = ("nn", name, id(call), flag, self.frame.call and id(self.frame.call))
            if flag:
                self.inplace_ctors[ref] = call
            return Val("module", ref=ref)
        if len(parts) >= 2 and parts[1] == "optim":
            if "lr_scheduler" in parts:
                return UNKNOWN
            return Val("optimizer", ref=self._trained_modules(call))

        # (see eval_method_call for what step() does with them)
        if len(parts) >= 2 and parts[1] == "distributions":
            return Val("dist", frozenset().union(*(v.segs for v in vals)) if vals else EMPTY,
                       any(v.leaf for v in vals))
        if name in T.FACTORIES:
            rg = kw.get("requires_grad")
            leaf = rg is not None and _true(rg[1]) is True and not self.no_grad
            return Val("tensor", leaf=leaf, store=self.fresh_store())
        if parts[1:2] == ["nn"] and len(parts) >= 3 and parts[2] == "utils":
            return UNKNOWN
        if name.endswith("_") and len(parts) >= 3 and parts[2] == "init":
            return UNKNOWN
        inplace = kw.get("inplace")
        if inplace is not None and _true(inplace[1]) is True and pos and \
                pos[0][0].store is not None:
            # F.relu(x, inplace=True) and friends change their input
            return self.in_place(call, pos[0][0], vals[1:])
        saves = "output" if name in T.OUTPUT_SAVING else name not in T.NON_SAVING_FUNCTIONS
        return self.op(call, name, vals, saves)

    def _trained_modules(self, call: cst.Call):
        """What an optimizer trains: ``(names, refs)`` of the modules whose
        ``.parameters()`` it was given (``Adam(netG.parameters())`` -> ({"netG"}, {ref})),
        or None when it cannot be told."""
        if not call.args:
            return None
        names, refs = set(), set()
        for sub in _calls(call.args[0].value):
            if isinstance(sub.func, cst.Attribute) and sub.func.attr.value in (
                    "parameters", "named_parameters"):
                name = dotted(sub.func.value)
                if name:
                    names.add(name)
                v = self.eval(sub.func.value)
                if isinstance(v.ref, tuple):
                    refs.add(v.ref)
        if not names:
            return None
        return Trained(frozenset(names), frozenset(refs))

    def _descendants(self, refs) -> set:
        """Modules and their submodules (attributes that hold modules), transitively."""
        out, todo = set(), list(refs)
        while todo:
            r = todo.pop()
            if r not in out:
                out.add(r)
                todo.extend(self.submodules.get(r, ()))
        return out

    def eval_method_call(self, call: cst.Call, func: cst.Attribute) -> Val:
        attr = func.attr.value
        recv = self.eval(func.value)
        if recv.kind == "ns":
            pos, kw = self._args(call)
            return self.call_path(call, f"{recv.ref}.{attr}", pos, kw)
        info = self._class_of(recv) if recv.kind in ("object", "module") else None
        if info is not None:
            m = self._method(info, attr)
            if m is not None:
                pos, kw = self._args(call)
                static = self._is_static(m)
                return self.call_ref(call, FuncRef(m, "G", info, static=static), pos, kw,
                                     None if static else recv)
            b = self.state.env.get(("@", recv.ref, attr))
            if b is not None:
                pos, kw = self._args(call)
                return self.apply(call, b.val, pos, kw, func)
        pos, kw = self._args(call)
        vals = [v for v, _ in pos] + [v for v, _ in kw.values()]
        if recv.kind == "unknown" and not recv.grad and attr in T.MODULE_METHODS:
            # only an nn.Module has .parameters(), .zero_grad(), .train(), ...: a model
            # built elsewhere (an import, a factory) is a model from here on
            key = self.key_of(func.value)
            if key is not None:
                recv = Val("module", ref=("ext", key))
                self.state.env[key] = Binding(recv, self.state.env[key].stmt
                                              if key in self.state.env else self.frame.stmt)
        if attr in T.BACKWARD_METHODS:
            if attr == "backward" and (recv.kind == "tensor" or recv.grad or not pos):
                self.backward(call, recv, func.value, "tensor.backward", pos, kw)
                return NONE
            if pos:
                self.backward(call, pos[0][0], pos[0][1], "wrapper.backward", pos, kw)
                return NONE
        if recv.kind == "optimizer":
            if attr.endswith("step"):
                trained = recv.ref if isinstance(recv.ref, Trained) else Trained(None, ())
                if pos and pos[0][0].kind == "func":
                    closure = pos[0][0].ref
                    ctx = LoopCtx(self._loop_key(call), call, self.frame.id,
                                  closure.node.body.body[0]
                                  if isinstance(closure.node, cst.FunctionDef) and
                                  isinstance(closure.node.body, cst.IndentedBlock) else None)
                    self._run_loop(ctx, lambda: self.call_ref(call, closure, [], {}, None))
                # the update happens after the closure's forward and backward
                self.param_updates += 1
                self.step_log.append(trained.names)
                for r in self._descendants(trained.refs):
                    self.bump(Val("tensor", store=("param", r)), call)
            return UNKNOWN
        if attr in ("train", "eval") and recv.kind in ("module", "unknown") and \
                len(pos) <= 1:
            # eval(), or train(False)
            self.frame.eval_mode = (attr == "eval") != (bool(pos) and
                                                        _true(pos[0][1]) is False)
        if recv.kind == "module":
            if attr in ("to", "cuda", "cpu", "train", "eval", "float", "double",
                        "requires_grad_", "half"):
                return recv
            if attr in ("parameters", "named_parameters") and isinstance(recv.ref, tuple):
                return Val("container", leaf=not self.no_grad, store=("param", recv.ref))
            if attr == "register_buffer" and len(pos) >= 2 and \
                    isinstance(pos[0][1], cst.SimpleString) and isinstance(recv.ref, tuple):
                self.state.env[("@", recv.ref, pos[0][1].evaluated_value)] = Binding(
                    pos[1][0], self.frame.stmt)
                return NONE
            if attr == "forward":
                return self.module_call(call, recv, pos)
            return UNKNOWN
        if recv.kind == "dist":
            if attr in ("sample", "sample_n", "enumerate_support"):
                return Val("tensor")
            return self.op(call, attr, [recv] + vals)
        if recv.kind in ("container", "tuple", "unknown", "none") and \
                attr in ("append", "extend", "insert", "add", "update", "appendleft", "put"):
            key = self.key_of(func.value)
            new = join_all([recv] + vals)
            if pos:
                self._accumulate(call, func.value, pos[0][0], pos[0][1])
            if key is not None:
                old = self.state.env.get(key)
                self.state.env[key] = Binding(Val("container", new.segs, new.leaf),
                                              old.stmt if old else self.frame.stmt)
            return NONE
        if recv.kind in ("container", "tuple") and not recv.grad:
            return self._propagate(vals)
        if recv.kind == "unknown" and any(attr in c.methods for c in self.classes.values()):
            # maybe an object of this file whose method we cannot resolve: it may change
            # the receiver in any way; stay quiet about what it held
            key = self.key_of(func.value)
            if key is not None and key in self.state.env:
                self.state.env[key] = Binding(UNKNOWN, self.state.env[key].stmt)
            return UNKNOWN
        if recv.kind in ("container", "tuple"):
            if attr in ("pop", "popleft", "get", "values", "items", "copy", "keys", "index"):
                return Val("container", recv.segs, recv.leaf) if attr in (
                    "values", "items", "copy") else self._element(recv)
            if attr in ("clear",):
                key = self.key_of(func.value)
                if key is not None and key in self.state.env:
                    self.state.env[key] = Binding(Val("container"), self.state.env[key].stmt)
                return NONE
            return self._propagate(vals)
        # tensors (or values that carry a graph)
        if attr == "detach_":
            self._cut_in_place(func.value, recv)
            return Val("tensor")
        if attr == "requires_grad_":
            flag = _true(pos[0][1]) if pos else True
            v = Val("tensor", recv.segs, flag is not False and not self.no_grad)
            key = self.key_of(func.value)
            if key is not None:
                self.state.env[key] = Binding(v, self.frame.stmt)
            return v
        if attr in T.CUT_METHODS:
            return Val("tensor") if attr not in ("size", "dim", "numel", "item", "tolist") \
                else SCALAR
        if not (recv.kind in ("tensor", "unknown") or recv.grad):
            return self._propagate(vals)
        if attr.endswith("_") and not attr.startswith("_") and attr not in T.NOT_INPLACE:
            res = self.in_place(call, recv, vals)
            key = self.key_of(func.value)
            if key is not None and res.segs:
                self.state.env[key] = Binding(res, self.frame.stmt)
            return res
        if recv.kind == "unknown" and not recv.grad:
            return self._propagate(vals)
        saves = "output" if attr in T.OUTPUT_SAVING else attr not in T.NON_SAVING_METHODS
        return self.op(call, attr, [recv] + vals, saves)

    def _cut_in_place(self, node, recv: Val) -> None:
        """``x.detach_()``: x (and the container x iterates, if any) loses its graph."""
        key = self.key_of(node)
        if key is not None:
            self.state.env[key] = Binding(Val("tensor"), self.frame.stmt)
        if recv.alias is not None and recv.alias in self.state.env:
            old = self.state.env[recv.alias]
            self.state.env[recv.alias] = Binding(
                Val(old.val.kind, EMPTY, False, old.val.ref,
                    tuple(Val(e.kind, EMPTY, False, e.ref) for e in old.val.elts)
                    if old.val.elts else None), old.stmt)

    # -------------------------------------------------------------- backward
    def backward(self, call, val: Val, root_node, api: str, pos, kw) -> None:
        """Walk and free the graph of ``val`` (unless retained) and report walks through
        segments an earlier backward freed (PyTorch: torch/csrc/autograd/engine.cpp)."""
        retain = self._retains(api, pos, kw)
        freed = self.state.freed
        self.passes_with_backward.update(p for _, p in self.loop_stack)
        for rec in self.accumulations.values():
            if rec.segs & val.segs:
                self.consumed.add(id(rec.node))
        if retain is True and not self.no_grad:
            self._check_retained_carry(call, root_node, val)
        hit = tuple(s for s in sorted(val.segs) if s in freed and self.segs[s].saves)
        if hit:
            self._report(call, root_node, hit, val.segs)
        else:
            self._check_versions(call, root_node, val)
        if retain is False and not self.no_grad:
            # a wrapper's backward (accelerator.backward(loss)) frees at its call site
            site_call, _, site = self._site(call, root_node)
            info = Free(site_call, self.stamp(),
                        tuple((f.id, f.stmt) for f in self.frames[:site]),
                        self.param_updates, self.tops.get(id(self.frames[site - 1].func))
                        or self.top())
            for s in val.segs:
                freed.setdefault(s, info)

    def _retains(self, api: str, pos, kw) -> bool | None:
        """True/None (unknown: treated as retaining) or False, from retain_graph and
        create_graph (create_graph=True makes retain_graph default to True)."""
        ri, ci = T.RETAIN_POSITION[api]

        def arg(name, idx):
            if name in kw:
                return kw[name][1]
            if idx is not None and len(pos) > idx:
                return pos[idx][1]
            return None

        r, c = arg("retain_graph", ri), arg("create_graph", ci)
        if r is not None:
            t = _true(r)
            if isinstance(r, cst.Name) and r.value == "None":
                t = None
                r = None
            else:
                return True if t is None else t
        if c is not None:
            t = _true(c)
            return True if t is None else t
        return False

    def _check_retained_carry(self, call, root_node, val: Val) -> None:
        """``retain_graph=True`` in a loop whose backward reaches a segment built in an
        earlier iteration: no error, but each step backpropagates through all history."""
        cur = self.stamp()
        for i, (ctx, p) in enumerate(self.loop_stack):
            for sid in sorted(val.segs):
                st = self.segs[sid].stamp
                if len(st) > i and st[:i] == cur[:i] and st[i] != p and \
                        self.pass_loop.get(st[i]) == ctx.key:
                    key = (id(call), "retained")
                    if key not in self._seen_hazards:
                        self._seen_hazards.add(key)
                        self.mark()
                        self.retained_carries.append(Hazard(
                            "retained", call, root_node, (sid,), (), ctx,
                            tuple((fr.id, fr.stmt, fr.func) for fr in self.frames),
                            dict(self.state.env), dict(self.state.freed),
                            self.param_updates, val.segs,
                            tuple(c for c, _ in self.loop_stack)))
                    return

    def _check_versions(self, call, root_node, val: Val) -> None:
        """Report the first saved tensor the backward needs that was changed in place
        since it was saved (autograd compares the saved ``_version`` with the tensor's:
        torch/csrc/autograd/saved_variable.cpp, "modified by an inplace operation")."""
        versions = self.state.versions
        for sid in sorted(val.segs):
            seg = self.segs[sid]
            for store, ver in seg.saved:
                if versions.get(store, 0) > ver and store in self.bump_sites:
                    key = (id(call), "inplace", store)
                    bump_key = (id(self.bump_sites[store][0]), "inplace", store)
                    if key in self._seen_hazards or (store[0] != "param" and
                                                     bump_key in self._seen_hazards):
                        return
                    self._seen_hazards.add(bump_key)
                    self.mark()
                    self._seen_hazards.add(key)
                    outer_call, outer_root, site = self._site(call, root_node)
                    self.inplace.append(InplaceHazard(
                        "param" if store[0] == "param" else "tensor", outer_call, call,
                        outer_root, seg, store, self.bump_sites[store],
                        tuple((fr.id, fr.stmt, fr.func) for fr in self.frames[:site]),
                        dict(self.state.env),
                        tuple((fr.id, fr.stmt, fr.func) for fr in self.frames)))
                    return

    def _site(self, call, root_node):
        """Where a backward is reported: a wrapper that backwards its parameter (``def
        manual_backward(self, loss): loss.backward()``) is reported at its call site.
        Returns ``(call, root expression, number of frames up to the site)``."""
        site = len(self.frames)
        for fr in reversed(self.frames[1:]):
            if not (isinstance(root_node, cst.Name) and root_node.value in fr.arg_nodes
                    and fr.call is not None and (fr.id, root_node.value) in self.state.env
                    and self.state.env[(fr.id, root_node.value)].stmt is None):
                break
            call, root_node = fr.call, fr.arg_nodes[root_node.value]
            site -= 1
        return call, root_node, site

    def _report(self, call, root_node, hit, val_segs) -> None:
        call, root_node, site = self._site(call, root_node)
        cur = self.stamp()
        frees = tuple(self.state.freed[s] for s in hit)
        kind, loop = "same", None
        f = frees[0]
        for i, (ctx, p) in enumerate(self.loop_stack):
            if i >= len(f.stamp) or f.stamp[i] != p:
                if i < len(f.stamp) and self.pass_loop.get(f.stamp[i]) == ctx.key:
                    # freed in an earlier pass (iteration) of this loop
                    loop = ctx
                    seg = self.segs[hit[0]]
                    inside = len(seg.stamp) > i and seg.stamp[:i] == cur[:i] and \
                        self.pass_loop.get(seg.stamp[i]) == ctx.key
                    kind = "carried" if inside else "reused"
                break
        key = (id(call), kind)
        if key in self._seen_hazards or (id(call), "same") in self._seen_hazards:
            return
        self._seen_hazards.add(key)
        self.mark()
        frames = tuple((fr.id, fr.stmt, fr.func) for fr in self.frames[:site])
        self.hazards.append(Hazard(kind, call, root_node, hit, frees, loop, frames,
                                   dict(self.state.env), dict(self.state.freed),
                                   self.param_updates, val_segs,
                                   tuple(ctx for ctx, _ in self.loop_stack)))

    # ---------------------------------------------------------- inlining
    def call_ref(self, call, ref: FuncRef, pos, kw, self_val: Val | None,
                 unknown_params: bool = False) -> Val:
        """Interpret a function of this file with the given arguments (inline)."""
        node = ref.node
        vals = [v for v, _ in pos] + [v for v, _ in kw.values()]
        self.inlined.add(id(node))
        self._note_stale(pos)
        if self.depth >= MAX_DEPTH or any(f.func is node for f in self.frames):
            return self._propagate(vals)
        frame = Frame(f"F{next(self._ids)}", node, ref.frame, call=call, self_obj=self_val,
                      module_method=ref.cls is not None and ref.cls.is_module)
        params = node.params
        names = [p for p in list(params.posonly_params) + list(params.params)]
        args = list(pos)
        if self_val is not None and not ref.static and names:
            first = names[0]
            names = names[1:]
            self.state.env[(frame.id, first.name.value)] = Binding(self_val, None)
        self.frames.append(frame)
        self.depth += 1
        saved_ng = self.no_grad
        if ref.no_grad:
            self.no_grad += 1
        try:
            for i, p in enumerate(names):
                if unknown_params:
                    v = UNKNOWN
                elif i < len(args):
                    v = args[i][0]
                    frame.arg_nodes[p.name.value] = args[i][1]
                elif p.name.value in kw:
                    v = kw[p.name.value][0]
                    frame.arg_nodes[p.name.value] = kw[p.name.value][1]
                elif p.default is not None:
                    v = self.eval(p.default)
                else:
                    v = UNKNOWN
                self.state.env[(frame.id, p.name.value)] = Binding(v, None)
            for p in list(params.kwonly_params):
                v = kw[p.name.value][0] if p.name.value in kw else UNKNOWN
                self.state.env[(frame.id, p.name.value)] = Binding(v, None)
            for star in (params.star_arg, params.star_kwarg):
                if isinstance(star, cst.Param):
                    self.state.env[(frame.id, star.name.value)] = Binding(
                        Val("container", frozenset().union(*(v.segs for v in vals))
                            if vals else EMPTY), None)
            if isinstance(node, cst.Lambda):
                result = self.eval(node.body)
            else:
                entry_dead = self.state.dead
                self.exec_block(node.body.body if isinstance(node.body, cst.IndentedBlock)
                                else node.body.body)
                rets = frame.returns
                if not self.state.dead:
                    rets = rets + [NONE]
                self.state.dead = entry_dead
                result = join_all(rets)
        finally:
            self.no_grad = saved_ng
            self.depth -= 1
            self.frames.pop()
            for k in [k for k in self.state.env if k[0] == frame.id]:
                del self.state.env[k]
        return result

    @staticmethod
    def _instance(info: ClassInfo, ref: tuple) -> Val:
        """An instance of a class of this file: a model, an optimizer or a plain object."""
        kind = "module" if info.is_module else ("optimizer" if info.is_optimizer else "object")
        return Val(kind, ref=ref)

    def _construct(self, call, info: ClassInfo, pos, kw) -> Val:
        obj = self._instance(info, ("obj", id(call), info.node.name.value))
        init = self._method(info, "__init__")
        if init is not None:
            self.call_ref(call, FuncRef(init, "G", info), pos, kw, obj)
        return obj

    def _instantiate(self, info: ClassInfo, func, run_init: bool) -> Val:
        obj = self._instance(info, ("self", info.node.name.value))
        init = self._method(info, "__init__")
        if run_init and init is not None:
            saved = self.state.freed
            self.call_ref(None, FuncRef(init, "G", info), [], {}, obj, unknown_params=True)
            self.state.freed = saved
            # the attributes __init__ set are the object's starting point, without graphs
            for k, b in list(self.state.env.items()):
                if k[0] == "@" and k[1] == obj.ref:
                    self.state.env[k] = Binding(self._strip(b.val), b.stmt)
        return obj

    def _class_of(self, v: Val) -> ClassInfo | None:
        if v.ref is None or isinstance(v.ref, str):
            return None
        if isinstance(v.ref, tuple) and len(v.ref) == 3 and v.ref[0] == "obj":
            return self.classes.get(v.ref[2])
        if isinstance(v.ref, tuple) and len(v.ref) == 2 and v.ref[0] == "self":
            return self.classes.get(v.ref[1])
        return None

    def _method(self, info: ClassInfo, name: str, _seen=None):
        if name in info.methods:
            return info.methods[name]
        seen = _seen or set()
        for base in info.bases:
            b = self.classes.get(base)
            if b is not None and base not in seen:
                seen.add(base)
                m = self._method(b, name, seen)
                if m is not None:
                    return m
        return None

    def class_info(self, node: cst.ClassDef) -> ClassInfo:
        """Record a class of this file (methods, bases, nn.Module-ness)."""
        name = node.name.value
        if name in self.classes and self.classes[name].node is node:
            return self.classes[name]
        bases = [dotted(a.value) or "" for a in node.bases if a.keyword is None]
        short = [b.rsplit(".", 1)[-1] for b in bases]
        methods = {}
        if isinstance(node.body, cst.IndentedBlock):
            for st in node.body.body:
                if isinstance(st, cst.FunctionDef):
                    methods[st.name.value] = st
        is_module = any(b in T.MODULE_BASES for b in short) or any(
            self.classes[b].is_module for b in short if b in self.classes)
        is_opt = any(b == "Optimizer" for b in short) or any(
            self.classes[b].is_optimizer for b in short if b in self.classes)
        info = ClassInfo(node, methods, short, is_module, is_opt)
        self.classes[name] = info
        return info

    @staticmethod
    def _is_static(func) -> bool:
        return any(dotted(d.decorator) in ("staticmethod", "classmethod")
                   for d in getattr(func, "decorators", ()))

    def _decorated_no_grad(self, func) -> bool:
        for d in getattr(func, "decorators", ()):
            expr = d.decorator
            call = expr if isinstance(expr, cst.Call) else cst.Call(func=expr)
            if self._grad_context(call) == "off":
                return True
        return False
