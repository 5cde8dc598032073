"""Python semantics: simple statements in execution order, expressions, names and
attributes, containers, and calls of the file's own functions and classes, interpreted
inline (compound statements: :mod:`gradguard.analysis.control_flow`)."""

from __future__ import annotations

import operator
from dataclasses import replace

import libcst as cst
import libcst.matchers as m

from gradguard.analysis import torchapi as T
from gradguard.analysis.frames import (MAX_DEPTH, MAX_FOREIGN_DEPTH, MAX_FOREIGN_STEPS, ClassInfo,
                                       Frame, FuncRef, Partial, TupleType, calls_in, children_of,
                                       dotted, is_global, literal_int, string_value)
from gradguard.analysis.values import (CALLABLE_KINDS, EMPTY, Alts, NONE, SCALAR, UNKNOWN, Binding,
                                       Cut, Val, dict_items, dict_sure_keys, element_shape, join,
                                       join_all, join_states, merge_src, module_refs,
                                       param_owners, store_parts)


_BUILTIN_TYPES = frozenset({"tuple", "list", "dict", "set", "frozenset", "str", "bytes", "int",
                            "float", "bool", "complex"})
# what a dict is an instance of, and sequence types it is not (collections.abc, typing)
_MAPPING_TYPES = frozenset({"dict", "collections.abc.Mapping", "collections.abc.MutableMapping",
                            "typing.Mapping", "typing.MutableMapping", "typing.Dict"})
_SEQUENCE_TYPES = frozenset({"collections.abc.Sequence", "collections.abc.MutableSequence",
                             "typing.Sequence", "typing.List", "typing.Tuple", "torch.Tensor"})


def names_in(target):
    """The names a store into ``target`` binds (``a``, ``a, (b, *c)``; not ``x.a`` nor
    ``x[a]``)."""
    if isinstance(target, cst.Name):
        yield target
    elif isinstance(target, (cst.Tuple, cst.List)):
        for e in target.elements:
            yield from names_in(e.value)
    elif isinstance(target, cst.StarredElement):
        yield from names_in(target.value)


def _names_read(node) -> set:
    """Every name ``node`` (and what it holds) mentions."""
    out, todo = set(), [node]
    while todo:
        n = todo.pop()
        if isinstance(n, cst.Name):
            out.add(n.value)
        todo.extend(children_of(n))
    return out


def _comprehension_names(node) -> frozenset:
    """The names a comprehension binds: its ``for`` targets, and those of the ``:=`` in
    it."""
    names, todo = set(), [node]
    while todo:
        n = todo.pop()
        if isinstance(n, (cst.CompFor, cst.NamedExpr)):
            names |= {t.value for t in names_in(n.target)}
        todo.extend(children_of(n))
    return frozenset(names)


def _module_method_receivers(func) -> frozenset:
    """The names ``func``'s code calls an nn.Module-only method on (torchapi
    MODULE_METHODS: ``net.parameters()``, ``net.eval()``)."""
    return frozenset(c.func.value.value for c in calls_in(func.body)
                     if isinstance(c.func, cst.Attribute) and isinstance(c.func.value, cst.Name)
                     and c.func.attr.value in T.MODULE_METHODS)



def _param_store(module: Val):
    """The storage of ``module.weight`` / ``.bias``: one of the module's parameters
    (``("param", module)``, what its optimizer's step changes in place), for one known
    module; else None."""
    return ("param", module.ref) if isinstance(module.ref, tuple) else None

def _module_attribute(attr: str) -> Val:
    """An attribute of an nn.Module the engine holds no value for: ``self.training`` is a
    bool, ``.data``/``.shape``-like names are no module, anything else may be a
    submodule."""
    if attr in T.MODULE_SCALARS:
        return SCALAR
    return Val("module") if attr not in T.CUT_ATTRIBUTES else UNKNOWN


def _literal(node) -> Val | None:
    """The value of a literal constant: True/False/None known, numbers and strings
    plain scalars; None for anything else."""
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return Val("scalar", ref=node.value == "True")
    if isinstance(node, cst.Name) and node.value == "None":
        return NONE
    if isinstance(node, cst.Integer):
        return known_int(literal_int(node))
    if isinstance(node, (cst.Float, cst.SimpleString, cst.ConcatenatedString)):
        return SCALAR
    return None


def known_int(n: int) -> Val:
    """A Python int of known value (a literal, a config default, arithmetic of those)."""
    return Val("scalar", ref=("int", n))


SOME_INT = Val("scalar", ref="int")
"""A Python int of unknown value (an element of ``range(n)``)."""


def int_of(v: Val) -> int | None:
    """The value of a known int, else None."""
    return v.ref[1] if v.kind == "scalar" and isinstance(v.ref, tuple) and \
        v.ref[0] == "int" else None


MAX_ELTS = 16
"""Lists of known length up to this keep each element (``[0 for _ in range(n)]``)."""

MAX_KNOWN_INT = 1 << 20
"""Arithmetic beyond this is not followed (a known int stays a loop bound or a config)."""


def range_length(v: Val) -> int | None:
    """How many elements a ``range(...)`` of known bounds has, else None."""
    return v.ref[1] if v.kind == "container" and isinstance(v.ref, tuple) and \
        v.ref[0] == "range" else None


def _int_op(op: str, a: int, b: int) -> int | None:
    """``a op b`` for the integer operators, None for others or results out of range."""
    if op == "Add":
        r = a + b
    elif op == "Subtract":
        r = a - b
    elif op == "Multiply":
        r = a * b
    elif op == "FloorDivide" and b:
        r = a // b
    elif op == "Modulo" and b:
        r = a % b
    elif op == "Power" and 0 <= b <= 32 and abs(a) <= 1 << 10:
        r = a ** b
    else:
        return None
    return r if abs(r) <= MAX_KNOWN_INT else None


def _is_stub(func) -> bool:
    """Whether ``func`` is an ``@abstractmethod`` or only says that subclasses implement
    it: a body of a docstring and ``...``, ``pass`` or ``raise NotImplementedError``."""
    if not isinstance(func, cst.FunctionDef):
        return False
    if any(dotted(d.decorator) in ("abstractmethod", "abc.abstractmethod")
           for d in func.decorators):
        return True
    body = func.body.body if isinstance(func.body, cst.IndentedBlock) else [func.body]
    for st in body:
        for small in st.body if isinstance(st, (cst.SimpleStatementLine,
                                                cst.SimpleStatementSuite)) else [st]:
            if isinstance(small, cst.Pass) or isinstance(small, cst.Expr) and isinstance(
                    small.value, (cst.Ellipsis, cst.SimpleString, cst.ConcatenatedString)):
                continue
            if isinstance(small, cst.Raise) and small.exc is not None and dotted(
                    small.exc.func if isinstance(small.exc, cst.Call) else small.exc) == \
                    "NotImplementedError":
                continue
            return False
    return True


class PythonSemantics:
    """Part of :class:`gradguard.analysis.interp.Interpreter` (a mixin over its state)."""

    def lookup_key(self, name: str):
        env = self.state.env
        fid, gid = self.frame.id, self.frame.gid
        if name in self.frame.globals_:
            return (gid, name)
        frames_by_id = {f.id: f for f in self.frames}
        cur, walked = self.frame.id, set()
        while cur is not None and cur not in walked:
            walked.add(cur)
            key = (cur, name)
            if key in env:
                return key
            # (a closure run after its enclosing function returned reads that one's cells)
            cur = frames_by_id[cur].parent if cur in frames_by_id else \
                self.closure_frames.get(cur)
        if (fid, name) in env:
            return (fid, name)
        return (gid, name) if (gid, name) in env else None

    def read_name(self, name: str) -> Val:
        key = self.lookup_key(name)
        if key is None:
            return UNKNOWN
        return self.read(key)

    def bind(self, name: str, val: Val, stmt=None) -> None:
        fid = self.frame.gid if name in self.frame.globals_ else self.frame.id
        self.state.env[(fid, name)] = Binding(val, stmt if stmt is not None else self.frame.stmt)

    def _rebound_accumulation(self, node: cst.Assign, target, val: Val) -> None:
        """``acc = acc + t``, ``avg = 0.95 * avg + 0.05 * loss``: a running value rebound
        to a sum of its own old value (scaled or not) and new terms is ``acc += t``: the
        new terms' graphs join the old value's, and each rebinding keeps them all alive."""
        if not isinstance(target, (cst.Name, cst.Attribute)) or not val.segs:
            return
        terms = _additive_terms(node.value)
        own = [t for t in terms if _reads_itself(t, target)]
        if len(terms) < 2 or len(own) != 1 or any(
                m.findall(t, m.MatchIfTrue(lambda n: n.deep_equals(target)))
                for t in terms if t is not own[0]):
            return
        key = self.key_of(target)
        old = self.state.env.get(key) if key is not None else None
        if old is None or old.val.kind in ("container", "tuple", "module"):
            return
        others = [t for t in terms if t is not own[0]]
        self._accumulate(node, target, Val("tensor", val.segs - old.val.segs),
                         others[0] if len(others) == 1 else None)

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
            if target.attr.value == "requires_grad" and isinstance(base.store, tuple) and \
                    base.store[0] == "param" and val.kind == "scalar" and isinstance(val.ref, bool):
                # ``for p in net.parameters(): p.requires_grad = False``
                self.set_frozen(base.store[1], val.ref, target)
            if target.attr.value == "requires_grad" and base.kind == "module" and \
                    isinstance(base.ref, tuple) and val.kind == "scalar" and \
                    isinstance(val.ref, bool) and stmt is not None:
                self.module_flag_sets.append((stmt, base.ref, val.ref))
            if target.attr.value == "requires_grad" and base.kind != "module" and \
                    (base.kind == "tensor" or base.grad):
                # (on an nn.Module it is a plain attribute: nn.Module has no requires_grad,
                # its requires_grad_() is what changes its parameters)
                # ``x.requires_grad = flag``: a leaf that (maybe) requires grad from now on
                key = self.key_of(target.value)
                off = val.kind == "scalar" and val.ref is False
                if key is not None and key in self.state.env:
                    self.state.env[key] = Binding(
                        Val("tensor", base.segs, not off, store=base.store), self.state.env[key].stmt)
                if not off:
                    # (grad mode does not matter: the flag is set all the same)
                    self.made_leaf(base, stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine)
                                   and len(stmt.body) == 1 else target, base.store)
                self._set_requires_grad(base, not off)
                return
            if base.kind in ("object", "module") and base.ref is not None and \
                    not isinstance(base.ref, str):
                akey = ("@", base.ref, target.attr.value)
                old = self.state.env.get(akey)
                if old is not None and old.val.segs & val.segs:
                    # computed from its own previous value: state (``self.h = cell(x,
                    # self.h)``), not a cache that is replaced by a recomputation
                    self.self_updated.add((base.ref, target.attr.value))
                if val.segs and stmt is not None:
                    sites = self.attr_stores.setdefault(akey, {})
                    sites[stmt] = sites.get(stmt, EMPTY) | val.segs
                self.state.env[akey] = Binding(val, stmt)
                if val.kind == "module":
                    self.submodules.setdefault(base.ref, set()).update(module_refs(val))
            elif isinstance(target.value, cst.Name) and base.kind == "unknown":
                # attributes on an unknown object: give it an identity from now on
                obj = Val("object", ref=("anon", target.value.value, self.frame.id))
                self.bind(target.value.value, obj)
                self.state.env[("@", obj.ref, target.attr.value)] = Binding(val, stmt)
            elif target.attr.value not in T.CUT_ATTRIBUTES:
                # kept where the engine does not look (``param.update = update``): it may
                # be used from there in any way
                self.escape([val])
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
                index = self.eval(target.slice[0].slice.value) if len(target.slice) == 1 and \
                    isinstance(target.slice[0].slice, cst.Index) else None
                slot = self._dict_slot_stored(old.val, index, val)
                if slot is not None:
                    self.state.env[key] = Binding(slot, old.stmt)
                elif old.val.kind == "container" and old.val.segs and val.kind == "container" \
                        and not val.grad and (val.elts == () or dict_items(val) in ((), ((), ()))):
                    # ``records[name] = []``: a slot emptied; which graphs it held is not
                    # known, so the container lets go of them all
                    self.state.env[key] = Binding(self._strip(old.val), old.stmt)
                elif old.val.kind in ("container", "tuple", "unknown", "none"):
                    if old.val.kind in ("container", "tuple") and not _constant_index(target):
                        # (``d["loss"] = loss`` replaces one slot each time round: the
                        # previous value's graph is let go; ``d[step] = loss`` piles up)
                        self._accumulate(target, target.value, val, _stored_term(stmt, target))
                    merged = join(old.val, val)
                    # ``meter[0] = loss`` on an object we know nothing of does not make
                    # it a list (its update() is no list's)
                    kind = "container" if old.val.kind in ("container", "tuple") \
                        else old.val.kind
                    self.state.env[key] = Binding(Val(kind, merged.segs, merged.leaf,
                                                      old.val.ref if kind == "container"
                                                      else None,
                                                      self._stored_elts(old.val, index, val)),
                                                  old.stmt)
        elif isinstance(target, cst.StarredElement):
            self.store(target.value, val, stmt)

    @staticmethod
    def _dict_slot_stored(old: Val, index: Val | None, val: Val) -> Val | None:
        """A dict of known string keys after ``d["loss"] = val`` (``self.losses = {}``,
        then one slot per loss, each batch; ``index``: the key's value): that key's value
        replaced (or added), the dict holding exactly its values' graphs; None for other
        stores."""
        items = dict_items(old)
        if not items or index is None or \
                not (isinstance(index.ref, tuple) and index.ref[0] == "str"):
            return None
        values = dict(zip(*items))
        values[index.ref[1]] = val
        vals = tuple(values.values())
        return Val("container", frozenset().union(*(v.segs for v in vals)),
                   any(v.leaf for v in vals),
                   ("dict", tuple(values), vals, dict_sure_keys(old) | {index.ref[1]}),
                   src=merge_src(vals))

    @staticmethod
    def _stored_elts(old: Val, index: Val | None, val: Val):
        """The elements of a list of known length after ``xs[i] = val`` (``index``: the
        value of ``i``): the one at a known index replaced, at another index each may be
        it; None for other containers (a dict, a list of unknown length)."""
        if old.kind != "container" or not old.elts or old.ref is not None or index is None:
            return None
        i = int_of(index)
        if i is not None and -len(old.elts) <= i < len(old.elts):
            elts = list(old.elts)
            elts[i] = val
            return tuple(elts)
        return tuple(join(e, val) for e in old.elts)

    def _set_requires_grad(self, val: Val, flag: bool) -> None:
        """``x.requires_grad = flag`` changes the tensor object, so every name and list
        that holds it sees the change; for the variable of a loop over a list of tensors
        (``for p in [C, W1, b1]: p.requires_grad = True``), each of them."""
        stores = set(store_parts(val.store)) if val.store is not None else set()
        if not stores and val.alias is not None and val.alias in self.state.env:
            stores = {e.store for e in self.state.env[val.alias].val.elts or ()
                      if e.kind == "tensor" and e.store is not None}
        stores.discard(None)
        if not stores:
            return

        def changed(v: Val) -> Val:
            if v.kind == "tensor" and v.store is not None and \
                    store_parts(v.store) <= stores and not v.segs:
                return replace(v, leaf=flag)
            if v.elts and any(e.store in stores for e in v.elts):
                return replace(v, elts=tuple(changed(e) for e in v.elts),
                               leaf=v.leaf or flag)
            return v
        env = self.state.env
        for k, b in list(env.items()):
            new = changed(b.val)
            if new is not b.val:
                env[k] = Binding(new, b.stmt)

    def _iterated(self, container: Val) -> Val:
        """What iterating over a container gives: a dict's keys (strings of known value
        for a literal of string keys, else not known: not its values), else its elements
        (:meth:`_element`)."""
        items = dict_items(container)
        if items is not None:
            return join_all([Val("scalar", ref=("str", k)) for k in items[0]]) \
                if items else UNKNOWN
        return self._element(container)

    def _element(self, container: Val) -> Val:
        """What iterating over / indexing a container gives (elements joined)."""
        if container.elts:
            return join_all(container.elts)
        if container.kind == "container" and isinstance(container.ref, tuple) and \
                container.ref[0] == "range":
            return SOME_INT
        if isinstance(container.ref, tuple) and container.ref[0] == "elem":
            return container.ref[1]  # a list of tuples of known parts
        if container.kind in ("container", "tuple"):
            kind = "tensor" if container.segs or container.store is not None else "unknown"
            if isinstance(container.ref, tuple) and container.ref[0] in ("modules", "children"):
                # an element of net.modules(): one of net's submodules
                return Val("unknown", ref=container.ref)
            if isinstance(container.ref, tuple) and \
                    container.ref[0] in ("named_modules", "named_children"):
                # (name, one of net's submodules)
                return Val("tuple", elts=(SCALAR, Val("unknown", ref=(
                    container.ref[0][len("named_"):], container.ref[1]))))
            return Val(kind, container.segs, container.leaf, store=container.store)
        return Val(container.kind if container.kind == "tensor" else "unknown",
                   container.segs, container.leaf, store=container.store,
                   src=container.src if container.kind == "tensor" else None)

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
        if isinstance(stmt, cst.BaseSmallStatement):
            # the body of a one-line compound statement (``if c: x = f()``): it stands
            # for its statement, the one a fix edits around
            self.exec_small(stmt, frame.stmt)
            return
        if frame.id == self.gid and id(stmt) in self.tops:
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
                if not is_global(frame.id):
                    # a closure: the variables it reads outlive this call (Python keeps
                    # them in cells), for when it runs later (a hook a factory returned)
                    frame.closures.update(_names_read(stmt.body))
                self.bind(stmt.name.value, Val("func", ref=FuncRef(
                    stmt, frame.id, no_grad=self._decorated_no_grad(stmt), gid=frame.gid)), stmt)
            elif isinstance(stmt, cst.ClassDef):
                info = self.class_info(stmt)
                self.bind(stmt.name.value, Val("class", ref=info), stmt)
            elif isinstance(stmt, cst.Match):
                self.exec_match(stmt)
        finally:
            frame.stmt = prev

    def exec_small(self, small: cst.BaseSmallStatement, line: cst.SimpleStatementLine) -> None:
        if isinstance(small, cst.Assign):
            val = self.eval(small.value)
            if len(small.targets) == 1:
                self._rebound_accumulation(small, small.targets[0].target, val)
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
                # ``layers += [conv, nn.ReLU()]``: each element appended in turn (so the
                # list keeps the shape its elements share, as append() keeps it)
                shape = cur
                for e in rhs.elts or ():
                    shape = Val("container", ref=element_shape(shape, e))
                # ``params += list(net.parameters())`` gathers parameters, as extend()
                had = frozenset() if cur.elts == () else param_owners(cur)
                added = param_owners(rhs)
                res = Val("container", cur.segs | rhs.segs, cur.leaf or rhs.leaf,
                          shape.ref if rhs.elts else None,
                          elts=cur.elts + rhs.elts if cur.elts is not None and
                          rhs.elts is not None else None,
                          store=("params", had | added) if had is not None and added else None)
            elif cur.kind == "tensor" and cur.store is not None:
                res = self.in_place(small, cur, [rhs], small.target, small.value)
            elif cur.kind == rhs.kind == "scalar":
                res = Val("scalar", src=merge_src((cur, rhs)))  # ``total += x.item()``
            else:
                if cur.kind in ("scalar", "unknown", "none", "tensor"):
                    self._accumulate(small, small.target, rhs, small.value)
                res = self.op(small, dotted(small.target) or "value", [cur, rhs], saves)
            self.store(small.target, res, line)
        elif isinstance(small, cst.Expr):
            self._expr_statement(small, line)
        elif isinstance(small, cst.Return):
            val = self.eval(small.value) if small.value is not None else NONE
            self._returned(val)
            self.frame.returns.append(val)
            self.frame.ret_conds.append(self.cond_of(small.value)
                                        if small.value is not None else None)
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
        elif isinstance(small, (cst.Import, cst.ImportFrom)):
            self.exec_import(small)
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

    def _isinstance(self, pos) -> Val:
        """``isinstance(obj, C)`` where ``C`` is a class of this program and ``obj`` a
        module or object whose class is known, or ``obj`` is a tensor and ``C`` a builtin
        container type or ``torch.Tensor``, or ``obj`` a Python list, number or None and
        ``C`` ``torch.Tensor``: True or False; else an unknown bool."""
        vals = [v for v, _ in pos]
        if len(vals) == 2 and dict_items(vals[0]) is not None:
            # a dict (a literal, a comprehension, dict(...)) is a Mapping, no sequence
            types = self._type_names(pos[1][1])
            if types and all(t in _MAPPING_TYPES for t in types):
                return Val("scalar", ref=True)
            if types and all(t in _BUILTIN_TYPES - {"dict"} or t in _SEQUENCE_TYPES
                             for t in types):
                return Val("scalar", ref=False)
            return SCALAR
        if len(vals) == 2 and vals[0].kind == "tensor":
            names = [dotted(e.value) for e in pos[1][1].elements] \
                if isinstance(pos[1][1], cst.Tuple) else [dotted(pos[1][1])]
            if all(n in _BUILTIN_TYPES and self.lookup_key(n) is None for n in names):
                return Val("scalar", ref=False)  # a tensor is no tuple, list, dict, ...
            if vals[1].kind == "ns" and vals[1].ref == "torch.Tensor":
                return Val("scalar", ref=True)
            return SCALAR
        if len(vals) == 2 and vals[0].kind in ("container", "tuple", "scalar", "none") and \
                vals[1].kind == "ns" and vals[1].ref == "torch.Tensor":
            return Val("scalar", ref=False)  # a Python list, number or None is no tensor
        found = self.nn_isinstance(vals[0], vals[1]) if len(vals) == 2 else None
        if found is not None:
            return found
        if len(vals) != 2 or vals[1].kind != "class" or vals[0].kind not in ("module", "object"):
            return SCALAR
        ref = vals[0].ref
        target = vals[1].ref.key
        if isinstance(ref, tuple) and ref and ref[0] == "nn":
            return Val("scalar", ref=False)    # a torch.nn module is no class of this file
        info = self._class_of(vals[0])
        if info is None:
            return SCALAR
        seen, todo = set(), [info.key]
        while todo:
            name = todo.pop()
            if name == target:
                return Val("scalar", ref=True)
            if name in seen or name not in self.classes:
                continue    # a class we do not have cannot derive from one we have
            seen.add(name)
            todo.extend(self.classes[name].bases)
        return Val("scalar", ref=False)

    def _type_names(self, node) -> list | None:
        """The types an ``isinstance`` second argument names: builtin names not rebound,
        dotted paths of imported ones (``collections.abc.Mapping``); None when one of them
        is not known."""
        out = []
        for e in node.elements if isinstance(node, cst.Tuple) else [node]:
            e = e.value if isinstance(e, cst.Element) else e
            name = dotted(e)
            if name in _BUILTIN_TYPES and self.lookup_key(name) is None:
                out.append(name)
                continue
            v = self.eval(e)
            if v.kind != "ns" or not isinstance(v.ref, str):
                return None
            out.append(v.ref)
        return out

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
            if isinstance(node, cst.SimpleString):
                # a string's value is kept (``activate == "relu"`` is then known)
                return Val("scalar", ref=("str", string_value(node)))
            if isinstance(node, cst.Integer):
                return known_int(literal_int(node))
            return SCALAR
        if isinstance(node, cst.Attribute):
            return self.eval_attribute(node)
        if isinstance(node, cst.Call):
            return self.eval_call(node)
        if isinstance(node, cst.BinaryOperation):
            left, right = self.eval(node.left), self.eval(node.right)
            op = type(node.operator).__name__
            saves = op not in ("Add", "Subtract")
            a, b = int_of(left), int_of(right)
            if a is not None and b is not None:
                r = _int_op(op, a, b)
                return known_int(r) if r is not None else SCALAR
            if op == "Multiply" and left.kind == "container" and left.elts and \
                    b is not None and 0 <= b * len(left.elts) <= MAX_ELTS and \
                    not left.segs and not left.leaf:
                # ``[0] * n``: a list of n of the same element
                return replace(left, elts=left.elts * b)
            if left.kind in ("container", "tuple") and op == "Add":
                return Val("container", left.segs | right.segs, left.leaf or right.leaf)
            if left.kind == right.kind == "scalar":
                # arithmetic of Python numbers (``total + x.item()``): a number, whose
                # history is theirs
                return Val("scalar", src=merge_src((left, right)))
            keep = None
            if op in ("Multiply", "MatrixMultiply"):
                # mul / mm save one operand for the other's gradient (derivatives.yaml:
                # self: grad * other, other: grad * self), only when that one needs it
                keep = [v for v, other in ((left, right), (right, left)) if other.grad]
            # the operands a fix can detach (``logpi * alpha``: cut ``logpi`` there)
            inputs = tuple((n, v.segs) for v, n in ((left, node.left), (right, node.right))
                           if isinstance(n, (cst.Name, cst.Attribute, cst.Subscript)) and
                           v.kind == "tensor" and v.segs)
            return self.op(node, "", [left, right], saves, inputs=inputs, keep=keep)
        if isinstance(node, cst.UnaryOperation):
            v = self.eval(node.expression)
            if isinstance(node.operator, cst.Not):
                known = self.truth(v)
                return SCALAR if known is None else Val("scalar", ref=not known)
            n = int_of(v)
            if n is not None and isinstance(node.operator, (cst.Minus, cst.Plus)):
                return known_int(-n if isinstance(node.operator, cst.Minus) else n)
            if v.kind == "scalar":
                return Val("scalar", src=v.src)  # ``-x.item()``: a number
            return self.op(node, "", [v], saves=False)
        if isinstance(node, cst.Comparison):
            left = self.eval(node.left)
            rights = [self.eval(c.comparator) for c in node.comparisons]
            a, b = int_of(left), int_of(rights[0]) if len(rights) == 1 else None
            compare = _COMPARISONS.get(type(node.comparisons[0].operator))
            if a is not None and b is not None and compare is not None:
                # two ints of known value (``update_step == 1``, ``k < n``): a known bool
                return Val("scalar", ref=compare(a, b))
            if len(rights) == 1 and isinstance(node.comparisons[0].operator,
                                               (cst.In, cst.NotIn)):
                # a string of known value that a dict literal surely has as a key, or that
                # is none of the keys it may have: a known bool
                items = dict_items(rights[0])
                if items and isinstance(left.ref, tuple) and left.ref[0] == "str" and \
                        left.kind == "scalar" and (left.ref[1] not in items[0] or
                                                   left.ref[1] in dict_sure_keys(rights[0])):
                    return Val("scalar", ref=(left.ref[1] in items[0]) == isinstance(
                        node.comparisons[0].operator, cst.In))
            if len(rights) == 1 and isinstance(node.comparisons[0].operator,
                                               (cst.Equal, cst.NotEqual)):
                # two strings of known value: a known bool
                a, b = left.ref, rights[0].ref
                if left.kind == rights[0].kind == "scalar" and isinstance(a, tuple) and \
                        isinstance(b, tuple) and a[0] == b[0] == "str":
                    return Val("scalar", ref=(a == b) == isinstance(
                        node.comparisons[0].operator, cst.Equal))
            if len(rights) == 1 and compare is not None and \
                    compare.__name__ in T.CUT_METHODS and left.kind == "tensor" and \
                    rights[0].kind in ("tensor", "scalar"):
                # ``x > 0.3``: aten gt/lt/eq... (the operator's own name) has no derivative
                # (the table): a bool tensor known to have no graph
                return Val("tensor", store=self.fresh_store(), src=(Cut("factory", node),))
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
            known = self.truth(self.eval(node.test))
            if known is not None:
                return self.eval(node.body if known else node.orelse)
            return join(self.eval(node.body), self.eval(node.orelse))
        if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
            vals = [self.eval(e.value) for e in node.elements]
            segs = frozenset().union(*(v.segs for v in vals)) if vals else EMPTY
            starred = any(isinstance(e, cst.StarredElement) for e in node.elements)
            return Val("tuple" if isinstance(node, cst.Tuple) else "container", segs,
                       any(v.leaf for v in vals), None, None if starred else tuple(vals),
                       src=None if starred else merge_src(vals))
        if isinstance(node, cst.Dict):
            vals = []
            for e in node.elements:
                if isinstance(e, cst.DictElement):
                    self.eval(e.key)
                vals.append(self.eval(e.value))
            segs = frozenset().union(*(v.segs for v in vals)) if vals else EMPTY
            keys = [string_value(e.key) for e in node.elements
                    if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)]
            # a literal of string keys keeps each key's value (``out["log"]``)
            ref = ("dict", tuple(keys), tuple(vals), frozenset(keys)) \
                if len(keys) == len(vals) and len(set(keys)) == len(keys) else "dict"
            return Val("container", segs, any(v.leaf for v in vals), ref, src=merge_src(vals))
        if isinstance(node, cst.Subscript):
            return self.eval_subscript(node)
        if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            return self.eval_comprehension(node)
        if isinstance(node, cst.Lambda):
            return Val("func", ref=FuncRef(node, self.frame.id, gid=self.frame.gid))
        if isinstance(node, cst.NamedExpr):
            v = self.eval(node.value)
            self.store(node.target, v)
            return v
        if isinstance(node, (cst.StarredElement, cst.Await)):
            return self.eval(node.value if hasattr(node, "value") else node.expression)
        if isinstance(node, cst.Yield):
            # a generator: what it yields are the elements its caller iterates
            frame = self.frame
            if frame.yields is None:
                frame.yields = []
            if isinstance(node.value, cst.From):
                frame.yields.append(self._element(self.eval(node.value.item)))
            elif node.value is not None:
                frame.yields.append(self.eval(node.value))
            return UNKNOWN
        return UNKNOWN

    def eval_attribute(self, node: cst.Attribute) -> Val:
        return self.attribute(self.eval(node.value), node.attr.value, node)

    def attribute(self, base: Val, attr: str, node) -> Val:
        """``base.<attr>`` (``node``: where it is read: ``x.attr`` or ``getattr(x, "attr")``)."""
        if base.kind == "ns":
            if isinstance(base.ref, str) and is_global(base.ref):  # a module of the user's
                self.touched.add(base.ref)
                key = (base.ref, attr)
                return self.read(key) if key in self.state.env else UNKNOWN
            if isinstance(base.ref, Alts):
                return Val("ns", ref=base.ref.map(lambda r: f"{r}.{attr}"))
            return Val("ns", ref=f"{base.ref}.{attr}" if base.ref is not None else None)
        if base.kind in ("object", "module") and base.ref is not None and \
                not isinstance(base.ref, str):
            b = self.state.env.get(("@", base.ref, attr))
            if b is not None:
                return b.val
            info = self._class_of(base)
            if info is not None:
                m = self._method(info, attr)
                if m is not None:
                    # a bound method taken as a value (a hook, a callback): called later,
                    # it runs on this object
                    ref = self.method_ref(m, info, static=self._is_static(m))
                    if not ref.static:
                        ref = replace(ref, bound=Val(base.kind, ref=base.ref))
                    return Val("func", ref=ref)
                v = self._class_attr(info, attr)
                if v is not None:
                    return v
            if base.kind == "module":
                if attr in ("weight", "bias"):
                    return Val("tensor", leaf=not self.no_grad and base.ref not in self.frozen,
                               store=_param_store(base))
                return _module_attribute(attr)
            return UNKNOWN
        if base.kind == "module":
            if attr in ("weight", "bias"):
                return Val("tensor", leaf=True, store=_param_store(base))
            return _module_attribute(attr)
        if attr in T.CUT_ATTRIBUTES:
            if attr == "data" and (base.kind == "tensor" or base.grad):
                # the same storage under a version counter of its own: in-place changes
                # through it are not seen by autograd (torch: ``x.data`` is
                # ``x.variable_data()``), nor do they give ``x`` a graph
                return self.cut_value("data", node, base, Val(
                    "tensor", store=("data", base.store) if base.store is not None else None))
            return Val("tensor") if attr in ("data", "grad") else SCALAR
        if base.kind == "tuple" and isinstance(base.ref, TupleType) and base.elts is not None \
                and attr in base.ref.fields:
            # a named tuple's field: that element
            return base.elts[base.ref.fields.index(attr)]
        if base.grad:
            if attr in ("T", "mT", "H", "real", "imag"):
                res = self.op(node, attr, [base], saves=False)
                return Val(res.kind, res.segs, res.leaf, store=base.store or res.store,
                           src=res.src)
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
        i = int_of(index_vals[0]) if len(node.slice) == 1 and len(index_vals) == 1 else None
        if base.elts is not None and i is not None and -len(base.elts) <= i < len(base.elts):
            return base.elts[i]
        # ``out["log"]``, or ``ACTIVATIONS[name]`` with ``name == "relu"`` known
        key = index_vals[0].ref[1] if len(node.slice) == 1 and len(index_vals) == 1 and \
            isinstance(index_vals[0].ref, tuple) and index_vals[0].ref[0] == "str" else None
        items = dict_items(base) if key is not None else None
        if items and key in items[0]:
            # ``out["log"]`` of ``out = {"loss": loss, "log": {...}}``: that key's value
            return items[1][items[0].index(key)]
        if key is not None and base.kind == "module" and isinstance(base.ref, tuple):
            # ``layers["enc"]`` of an nn.ModuleDict: its child of that name
            b = self.state.env.get(("@", base.ref, key))
            if b is not None:
                return b.val
        if base.kind in ("container", "tuple") and len(node.slice) == 1 and \
                isinstance(node.slice[0].slice, cst.Slice):
            # ``data[::-1]``, ``xs[1:]``: a list (tuple) of some of the elements, not one
            return Val(base.kind, base.segs, base.leaf, None if base.ref == "dict" else base.ref,
                       None, each=base.each)
        if base.kind in ("container", "tuple", "unknown", "object"):
            k = self._iteration_of(node.slice[0].slice.value) \
                if base.each and len(node.slice) == 1 and \
                isinstance(node.slice[0].slice, cst.Index) else None
            if k is not None:  # losses[i] in the i-th iteration: that element's graph
                return self._nth_element(self._element(base), base.each, k)
            if base.each and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
                # one element of a list holding a different graph in each element, at an
                # index not tied to a loop pass (``losses[0]`` after the loop): which
                # element's graph is not known, only what every element shares
                el = self._element(base)
                return Val(el.kind, el.segs - base.each, el.leaf, store=el.store)
            return self._element(base)
        if base.kind == "scalar":
            return SCALAR  # ``x.size()[0]``, ``name[0]``: a part of a Python value
        if base.kind == "tensor" and base.grad:
            basic = self._basic_index(node, index_vals)
            # (advanced indexing saves its indices, not ``base``: nothing an in-place
            # change of ``base`` breaks, but a graph a backward frees)
            res = self.op(node, "", [base], saves=not basic and T.INDEX_SAVES_INDICES,
                          keep=[])
            if base.store is not None and basic:
                # slicing and integer indexing give a view of the same storage
                res = Val(res.kind, res.segs, res.leaf, store=base.store, src=res.src)
            return res
        return self._element(base)

    @staticmethod
    def _basic_index(node: cst.Subscript, index_vals: list) -> bool:
        """Whether the index is made of slices, Python ints (literals, known ints, an
        element of ``range()``: ``T[b][step]``), ``None`` and ``...`` only (basic
        indexing: the result is a view; a tensor index copies). ``index_vals``: the
        values of the index's non-slice parts, in order."""
        vals = iter(index_vals)
        for el in node.slice:
            s = el.slice
            if isinstance(s, cst.Slice):
                continue
            iv = next(vals, None)
            if iv is not None and (int_of(iv) is not None or
                                   iv.kind == "scalar" and iv.ref == SOME_INT.ref):
                continue
            v = s.value
            if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus):
                v = v.expression
            if isinstance(v, cst.Integer) or (isinstance(v, cst.Name) and v.value == "None") \
                    or isinstance(v, cst.Ellipsis):
                continue
            return False
        return True

    def eval_comprehension(self, node) -> Val:
        env, fid = self.state.env, self.frame.id
        bound = [(fid, name) for name in self.code_fact(_comprehension_names, node)]
        bound = [k for k in bound if k not in env]  # (those it binds anew are its own)
        for comp in self._comp_fors(node.for_in):
            it = self.eval(comp.iter)
            self.store(comp.target, self._iterated(it), comp)
            for cond in comp.ifs:
                self.eval(cond.test)
        start = next(self._ids)
        if isinstance(node, cst.DictComp):
            self.eval(node.key)
            v = self.eval(node.value)
        else:
            v = self.eval(node.elt)
        for k in bound:
            self.state.env.pop(k, None)
        # the element expression runs once per element (when taken, for a generator)
        out = self._generated([v], start, lazy=isinstance(node, cst.GeneratorExp))
        n = range_length(it) if isinstance(node, cst.ListComp) and \
            node.for_in.inner_for_in is None and not node.for_in.ifs else None
        if n is not None and n <= MAX_ELTS and v.kind in ("scalar", "none") and not v.segs:
            # ``[0 for _ in range(n)]`` with n known: n slots, each told apart by index
            return replace(out, elts=(v,) * n)
        if isinstance(node, cst.DictComp):
            out = replace(out, ref="dict")
        if v.kind == "module" and isinstance(v.ref, tuple) and not isinstance(node, cst.DictComp):
            # ``[Block(d) for _ in range(n)]``: every element is a module built the same
            # way; one stands for them all (an nn.Sequential / ModuleList of them runs it)
            out = replace(out, elts=(v,))
        elif v.kind == "tuple" and v.elts and not isinstance(node, cst.DictComp):
            # ``[(torch.randn(8, 3), torch.randint(0, 4, (8,))) for _ in range(n)]``: every
            # element is such a tuple (a loop over it unpacks the parts apart)
            out = replace(out, ref=("elem", v))
        elif v.kind == "tensor" and v.store is not None:
            # ``[conv(x) for conv in convs]``, ``{k: sigmoid(h(x)) for k, h in ...}``: an
            # element is a tensor made there; an in-place change of one
            # (``laterals[i] += up``, ``scores["obj"][mask] = 0``) changes what its op saved
            out = replace(out, store=v.store)
        return out

    @staticmethod
    def _comp_fors(comp):
        while comp is not None:
            yield comp
            comp = comp.inner_for_in

    def _args(self, call: cst.Call):
        pos, kw = [], {}
        for a in call.args:
            v = self.eval(a.value)
            if a.keyword is not None:
                kw[a.keyword.value] = (v, a.value)
            elif a.star == "*" and v.kind == "tuple" and v.elts is not None:
                # ``*t`` of a tuple of known elements: those elements, in order
                pos.extend((e, a.value) for e in v.elts)
            elif a.star:
                # ``*xs``: several arguments, which ones not known; the elements of a list
                # of known shape kept (``nn.Sequential(*[Block() for _ in range(n)])``)
                pos.append((Val("unknown", v.segs, v.leaf, elts=v.elts if a.star == "*" and
                                v.kind in ("container", "tuple") else None), a.value))
            else:
                pos.append((v, a.value))
        return pos, kw

    def eval_call(self, call: cst.Call) -> Val:
        func = call.func
        if isinstance(func, cst.Attribute):
            return self.eval_method_call(call, func)
        callee = self.eval(func)
        pos, kw = self._args(call)
        if isinstance(func, cst.Name) and func.value == "range" and callee is UNKNOWN and \
                not kw and 1 <= len(pos) <= 3:
            bounds = [int_of(v) for v, _ in pos]
            if None not in bounds and not (len(bounds) == 3 and bounds[2] == 0):
                # ``range(1, update_step)`` of known ints: how many times a loop runs
                return Val("container", ref=("range", len(range(*bounds)), tuple(bounds)))
            if all(v.kind in ("scalar", "unknown") for v, _ in pos):
                # ``range(x.size(0))``: ints, how many not known
                return Val("container", ref=("range", None, None))
        if isinstance(func, cst.Name) and func.value in ("bool", "int") and \
                callee is UNKNOWN and not kw and len(pos) == 1:
            n = int_of(pos[0][0])
            flag = pos[0][0].ref if pos[0][0].kind == "scalar" and \
                isinstance(pos[0][0].ref, bool) else None
            if n is not None or flag is not None:
                # ``bool(i % 2)``, ``int(flag)`` of a known int or bool
                value = n if n is not None else int(flag)
                return Val("scalar", ref=bool(value)) if func.value == "bool" else \
                    known_int(value)
        return self.apply(call, callee, pos, kw, func)

    def apply(self, call, callee: Val, pos, kw, func_node) -> Val:
        """Call ``callee`` with evaluated arguments."""
        vals = [v for v, _ in pos] + [v for v, _ in kw.values()]
        if callee.kind in CALLABLE_KINDS or callee.kind == "module":
            if isinstance(callee.ref, Alts):
                return self._apply_each(call, callee, pos, kw, func_node)
        if callee.kind in CALLABLE_KINDS:
            if callee.ref is None:
                return self._propagate(vals)
        if callee.kind == "func" and isinstance(callee.ref, Partial):
            part = callee.ref
            return self.apply(call, part.func, list(part.pos) + list(pos),
                              {**dict(part.kw), **kw}, None)
        if callee.kind == "func" and isinstance(callee.ref, TupleType):
            return named_tuple(callee.ref.fields, pos, kw)
        if callee.kind == "func":
            return self.call_ref(call, callee.ref, pos, kw, callee.ref.bound
                                 if isinstance(callee.ref, FuncRef) else None)
        if callee.kind == "class":
            return self._construct(call, callee.ref, pos, kw)
        if callee.kind == "ns":
            return self.call_path(call, callee.ref, pos, kw)
        if callee.kind in ("module", "object"):
            info = self._class_of(callee)
            if info is not None:
                fwd = self._method(info, "forward" if info.is_module else "__call__")
                if fwd is not None:
                    res = self.call_ref(call, self.method_ref(fwd, info), pos, kw, callee)
                    return self._forward_hooks(call, callee, pos, res)
            if callee.kind == "module":
                return self._forward_hooks(call, callee, pos, self.module_call(call, callee, pos))
            return self._propagate(vals)
        if callee.kind == "unknown" and isinstance(func_node, cst.Name):
            key = self.lookup_key(func_node.value)
            if key is not None and not is_global(key[0]):
                # a callable held in a local variable or parameter: a model when its
                # function also uses it as one (model.parameters(), model.train(), ...);
                # else a call we know nothing of (a data transform, a factory)
                if func_node.value in self._used_as_module(key[0]):
                    return self.module_call(call, Val("module"), pos)
                return self._propagate(vals)
            if key is None and func_node.value == "isinstance":
                return self._isinstance(pos)
            if key is None and func_node.value == "getattr" and len(pos) == 2 and not kw and \
                    isinstance(pos[1][0].ref, tuple) and pos[1][0].ref[0] == "str":
                # ``getattr(self, "block1")`` of a name of known value: that attribute
                return self.attribute(pos[0][0], pos[1][0].ref[1], call)
            if key is None and func_node.value in T.CUT_BUILTINS:
                return SCALAR
            if func_node.value in ("list", "tuple", "sorted", "reversed", "set", "iter"):
                v = join_all(vals) if vals else NONE
                one = vals[0] if len(vals) == 1 and not kw else None
                # the same elements (reversed or sorted: the same shape of element)
                shape = one.ref if one is not None and one.kind == "container" and \
                    isinstance(one.ref, tuple) and one.ref[0] == "elem" else None
                elts = one.elts if one is not None and one.elts else None
                if elts is not None and func_node.value in ("sorted", "set"):
                    elts = None  # (an order not known)
                elif elts is not None and func_node.value == "reversed":
                    elts = elts[::-1]
                # ``list(net.parameters())``: the same parameters
                store = one.store if one is not None and one.kind == "container" and \
                    param_owners(one) else None
                return Val("container", v.segs, v.leaf, shape, elts=elts, each=v.each,
                           store=store)
            if func_node.value in ("zip", "enumerate") and vals and not kw:
                # an element is a tuple: (index, element) / one element of each iterable
                of = vals[:1] if func_node.value == "enumerate" else vals
                v = join_all(vals)
                if all(x.elts is not None and x.kind in ("container", "tuple") for x in of):
                    # of iterables of known elements: the known tuples, in order
                    rows = zip(*(x.elts for x in of))
                    items = tuple(Val("tuple", join_all(r).segs, any(e.leaf for e in r),
                                      elts=(SCALAR,) * (func_node.value == "enumerate") + r)
                                  for r in rows)
                    return Val("container", v.segs, v.leaf, elts=items, each=v.each)
                parts = ([SCALAR] if func_node.value == "enumerate" else []) + \
                    [self._iterated(x) for x in of]
                item = Val("tuple", v.segs, v.leaf, elts=tuple(parts))
                return Val("container", v.segs, v.leaf, elts=(item,), each=v.each)
            if func_node.value in ("zip", "enumerate", "map", "filter", "dict"):
                v = join_all(vals) if vals else NONE
                return Val("container", v.segs, v.leaf, "dict" if func_node.value == "dict"
                           else None, each=v.each)
            if func_node.value == "super":
                return self.frame.self_obj or UNKNOWN
            if func_node.value in ("sum", "min", "max", "abs", "next", "getattr"):
                return self._propagate(vals)
        return self._propagate(vals)

    def _used_as_module(self, frame_id: str) -> frozenset:
        """:func:`_module_method_receivers` of the function of frame ``frame_id`` (one
        scan per function and module analysis)."""
        func = next((f.func for f in self.frames if f.id == frame_id), None)
        if func is None:
            return frozenset()
        return self.code_fact(_module_method_receivers, func)

    def _saved_only_here(self, arg: Val, call) -> bool:
        """Whether nothing but ``call`` itself saved the tensor ``arg``: an input no
        operation saved, or the output of an earlier pass of ``x = layers[k](x)`` (made by
        one of the list's modules, which one is not known)."""
        if arg.kind != "tensor" or arg.store is None:
            return False
        savers = {self.segs[sid].node for part in store_parts(arg.store)
                  for sid in self.saved_by.get(part, ())}
        return savers <= {call}

    def _apply_each(self, call, callee: Val, pos, kw, func_node) -> Val:
        """Call each alternative a name may be bound to, from the same state, and join
        what they return and leave (as the branches that bound them would)."""
        entry, results, states = self.state, [], []
        options = callee.ref.options
        if callee.kind == "module" and pos and self._saved_only_here(pos[0][0], call):
            options = self.one_of_modules(options)
        for option in options:
            self.state = entry.copy()
            results.append(self.apply(call, Val(callee.kind, ref=option), pos, kw, func_node))
            states.append(self.state)
        self.state = join_states(states)
        return join_all(results)

    def _forward_hooks(self, call, module: Val, pos, out: Val) -> Val:
        """``module(x)`` runs the hooks ``register_forward_hook`` gave it after forward,
        as ``hook(module, inputs, output)`` (torch/nn/modules/module.py ``_call_impl``); a
        hook that returns something else replaces the output."""
        hooks = self.forward_hooks.get(module.ref) if isinstance(module.ref, tuple) else None
        for hook in hooks or ():
            args = Val("tuple", frozenset().union(*(v.segs for v, _ in pos)) if pos else EMPTY,
                       elts=tuple(v for v, _ in pos))
            res = self.apply(call, hook, [(module, call), (args, call), (out, call)], {}, None)
            if res.kind != "none":
                out = join(out, res) if res.kind == "unknown" else res
        return out

    def _propagate(self, vals) -> Val:
        """An unknown call: its result depends on its arguments, no new graph. A
        module's ``parameters()`` handed to it (an optimizer, a scheduler, a gradient
        clipper of another library) is held, not computed with."""
        self.escape(vals)
        vals = [v for v in vals if v.kind not in ("module", "func", "class", "ns") and not (
            v.kind == "container" and isinstance(v.store, tuple) and v.store[0] == "param")]
        segs = frozenset().union(*(v.segs for v in vals)) if vals else EMPTY
        leaf = any(v.leaf for v in vals)
        if self.no_grad:
            return UNKNOWN
        return Val("unknown", segs, leaf) if segs or leaf else UNKNOWN

    def escape(self, vals) -> None:
        """``vals`` are handed to code the engine does not follow: the modules among them
        (a model, its parameters, a graph reaching them) may be used there in any way
        (GG402 stays quiet about them)."""
        if any(v.segs or v.kind in ("module", "object") for v in vals):
            # code the engine does not follow, given a graph or a model, may run a
            # backward: what gradients an optimizer holds is no longer known
            for opt in self.grads_since_clear:
                self.grads_since_clear[opt] = None
        for v in vals:
            if v.kind in ("module", "object"):
                self.escaped.update(module_refs(v))
            elif isinstance(v.store, tuple) and v.store[0] == "param":
                self.escaped.add(v.store[1])
            for e in v.elts or ():
                if e.kind in ("module", "object") and isinstance(e.ref, tuple):
                    self.escaped.add(e.ref)
            if v.segs:
                self.escaped |= self.reach_of(v.segs)[0]

    def call_ref(self, call, ref: FuncRef, pos, kw, self_val: Val | None,
                 unknown_params: bool = False) -> Val:
        """Interpret a function of this file with the given arguments (inline)."""
        node = ref.node
        vals = [v for v, _ in pos] + [v for v, _ in kw.values()]
        self.inlined.add(id(node))
        if ref.gid != self.gid:
            self.touched.add(ref.gid)
        self._note_stale(pos)
        foreign = ref.gid != self.gid and (
            self.foreign_steps >= MAX_FOREIGN_STEPS or
            sum(f.gid != self.gid for f in self.frames) >= MAX_FOREIGN_DEPTH)
        recursive = any(f.func is node for f in self.frames)
        if recursive and not (ref.cls is not None and ref.cls.is_module):
            # a function calling itself (``tuple(repackage_hidden(v) for v in h)``): what
            # it returns is what this run of it will return, not known here. (A module's
            # forward reached again through a submodule of its own class is a module call:
            # it builds a graph from what it is given.)
            self.escape(vals)
            return UNKNOWN
        if self.depth >= MAX_DEPTH or foreign or recursive:
            return self._propagate(vals)
        if ref.cls is not None and _is_stub(node):
            # an abstract method, or one whose body is only ``...``, ``pass`` or ``raise
            # NotImplementedError``: what the override a subclass gives returns is not
            # known here (it is not the stub's None)
            self.escape(vals)
            return UNKNOWN
        # (an imported module's run names its frames apart: its closures outlive it)
        fid = f"F{next(self._ids)}" if self.gid == "G" else f"F{next(self._ids)}{self.gid}"
        frame = Frame(fid, node, ref.frame, call=call, self_obj=self_val,
                      module_method=ref.cls is not None and ref.cls.is_module, gid=ref.gid)
        if call is not None:
            self.call_sites[frame.id] = (self.frame.id, call, tuple(
                (n, v.segs) for v, n in list(pos) + list(kw.values()) if v.segs))
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
            self.no_grad_sites.append(node)
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
            start = next(self._ids)
            if isinstance(node, cst.Lambda):
                result = self.eval(node.body)
            else:
                entry_dead = self.state.dead
                self.exec_block(node.body.body if isinstance(node.body, cst.IndentedBlock)
                                else node.body.body)
                rets = frame.returns
                if not self.state.dead:
                    rets = rets + [NONE]
                result = join_all(rets)
                if self.pending_inplace:
                    self.confirm_inplace(frame.id, result)
                conds = frame.ret_conds
                self.returned_cond = (call, conds[0]) if self.state.dead and conds and \
                    call is not None and conds[0] is not None and \
                    all(c == conds[0] for c in conds) else None
                self.state.dead = entry_dead
        finally:
            if ref.no_grad:
                self.no_grad_sites.pop()
            self.no_grad = saved_ng
            self.depth -= 1
            self.frames.pop()
            for k in [k for k in self.state.env if k[0] == frame.id and
                      k[1] not in frame.closures]:
                del self.state.env[k]
            if frame.closures:
                self.closure_frames[frame.id] = frame.parent
        self.completed.add(id(node))
        if frame.yields is not None:
            result = self._generated(frame.yields, start, lazy=True)
        return result

    def _generated(self, yields: list, start: int, lazy: bool = False) -> Val:
        """An iterable whose elements are ``yields``, computed once per element (a
        comprehension's element expression; a generator function's body, which runs
        lazily as its caller iterates): the graphs built since ``start`` (segments newer
        than it) are a new graph in each element, unless something that outlives the
        iteration holds them. ``lazy``: each element is built when it is taken
        (a generator)."""
        v = join_all(yields)
        each = frozenset(s for s in v.segs if s > start and s not in self.elem_copies.values())
        for b in self.state.env.values() if each else ():
            each -= b.val.segs
        if lazy:
            self.lazy_segs |= each
        return Val("container", v.segs, v.leaf, each=each)

    def call_string(self) -> tuple:
        """The calls that led to this point (ids of the call nodes of the frames being
        run): an object is named by where it was made and by these, so two models that
        build their layers in one helper (``self.net = mlp(...)``) hold two sets of
        parameters, not one; and, in a constructor's loop run pass by pass, by the pass
        (``layers += [Coupling(d)]`` for each ``i``)."""
        return tuple(id(f.call) for f in self.frames if f.call is not None) + \
            self.unrolled_passes

    @staticmethod
    def _instance(info: ClassInfo, ref: tuple) -> Val:
        """An instance of a class of this file: a model, an optimizer or a plain object."""
        kind = "module" if info.is_module else ("optimizer" if info.is_optimizer else "object")
        return Val(kind, ref=ref)

    def _construct(self, call, info: ClassInfo, pos, kw) -> Val:
        obj = self._instance(info, ("obj", (id(call),) + self.call_string(), info.key))
        self.created.add(obj.ref)
        init = self._method(info, "__init__")
        if init is None and info.fields is not None and "NamedTuple" in info.bases:
            # ``class Out(NamedTuple): y: Tensor; h: Tensor``: a tuple
            return named_tuple(info.fields, pos, kw)
        if init is not None:
            self.call_ref(call, self.method_ref(init, info), pos, kw, obj)
        elif info.fields is not None:
            # a @dataclass's generated __init__: fields from the arguments, in order
            # (the others keep their class-level defaults)
            given = dict(zip(info.fields, (v for v, _ in pos)))
            given.update((k, v) for k, (v, _) in kw.items() if k in info.fields)
            for name, v in given.items():
                self.state.env[("@", obj.ref, name)] = Binding(v, self.frame.stmt)
        return obj

    def _class_attr(self, info: ClassInfo, name: str) -> Val | None:
        """A class-level attribute (of ``info`` or a base) read through an instance,
        when its value is a literal constant (a config default: ``learned_freq: bool =
        True``); else None."""
        node = next((c.attrs[name] for c in self._mro(info) if name in c.attrs), None)
        return _literal(node) if node is not None else None

    def _instantiate(self, info: ClassInfo, func, run_init: bool) -> Val:
        obj = self._instance(info, ("self", info.key))
        self.created.add(obj.ref)
        init = self._method(info, "__init__")
        if run_init and init is not None:
            saved = self.state.freed
            self.call_ref(None, self.method_ref(init, info), [], {}, obj, unknown_params=True)
            self.state.freed = saved
            # the attributes __init__ set are the object's starting point, without graphs
            for k, b in list(self.state.env.items()):
                if k[0] == "@" and k[1] == obj.ref:
                    self.state.env[k] = Binding(self._strip(b.val), b.stmt)
        return obj

    def _class_of(self, v: Val) -> ClassInfo | None:
        if v.ref is None or isinstance(v.ref, str):
            return None
        info = None
        if isinstance(v.ref, tuple) and len(v.ref) == 3 and v.ref[0] == "obj":
            info = self.classes.get(v.ref[2])
        elif isinstance(v.ref, tuple) and len(v.ref) == 2 and v.ref[0] == "self":
            info = self.classes.get(v.ref[1])
        if info is not None and info.gid != self.gid:
            self.touched.add(info.gid)
        return info

    def _method(self, info: ClassInfo, name: str):
        return next((c.methods[name] for c in self._mro(info) if name in c.methods), None)

    def _mro(self, info: ClassInfo):
        """``info`` and its known bases, depth first, each once (Python's MRO for the
        single-inheritance code this is about)."""
        seen, todo = set(), [info]
        while todo:
            c = todo.pop(0)
            if c.key in seen:
                continue
            seen.add(c.key)
            if c.gid != self.gid:
                self.touched.add(c.gid)
            yield c
            todo[:0] = [self.classes[b] for b in c.bases if b in self.classes]

    def class_info(self, node: cst.ClassDef) -> ClassInfo:
        """Record a class (methods, bases, nn.Module-ness) defined in this interpreter's
        module. A base is a known class when the module's global name is bound to one
        (defined above, or imported from the user's own modules)."""
        name = node.name.value
        key = name if self.gid == "G" else f"{self.gid}.{name}"
        if key in self.classes and self.classes[key].node is node:
            return self.classes[key]
        bases, short = [], []
        for a in node.bases:
            if a.keyword is not None:
                continue
            written = dotted(a.value) or ""
            short.append(written.rsplit(".", 1)[-1])
            at = (self.gid, written)
            val = self.read(at) if at in self.state.env else \
                self._forced(self.global_env[at].val) if at in self.global_env else None
            known = val.ref if val is not None and val.kind == "class" and \
                isinstance(val.ref, ClassInfo) else None
            bases.append(known.key if known is not None else short[-1])
        methods, attrs, fields = {}, {}, []
        if isinstance(node.body, cst.IndentedBlock):
            for st in node.body.body:
                if isinstance(st, cst.FunctionDef):
                    methods[st.name.value] = st
                    self.method_gids[id(st)] = self.gid
                for small in st.body if isinstance(st, cst.SimpleStatementLine) else ():
                    if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                        fields.append(small.target.value)
                        if small.value is not None:
                            attrs[small.target.value] = small.value
                    elif isinstance(small, cst.Assign) and len(small.targets) == 1 and \
                            isinstance(small.targets[0].target, cst.Name):
                        attrs[small.targets[0].target.value] = small.value
        is_dataclass = any((dotted(d.decorator.func if isinstance(d.decorator, cst.Call)
                                   else d.decorator) or "").endswith("dataclass")
                           for d in node.decorators)
        known = [self.classes[b] for b in bases if b in self.classes]
        is_module = any(b in T.MODULE_BASES for b in short) or any(c.is_module for c in known)
        is_opt = any(b == "Optimizer" for b in short) or any(c.is_optimizer for c in known)
        info = ClassInfo(node, methods, bases, is_module, is_opt, key, self.gid, attrs,
                         tuple(fields) if is_dataclass or "NamedTuple" in short else None)
        self.classes[key] = info
        return info

    def method_ref(self, method: cst.FunctionDef, info: ClassInfo, static: bool = False) -> FuncRef:
        """A method found on ``info`` (or a base of it) as a :class:`FuncRef`, to run in
        the global frame of the module that defines it."""
        gid = self.method_gids.get(id(method), "G")
        return FuncRef(method, gid, info, no_grad=bool(method.decorators) and
                       self._decorated_no_grad(method), static=static, gid=gid)

    @staticmethod
    def _is_static(func) -> bool:
        return any(dotted(d.decorator) in ("staticmethod", "classmethod")
                   for d in getattr(func, "decorators", ()))


# each comparison operator's function; its name is the aten op's (eq, lt, ...)
_COMPARISONS = {
    cst.Equal: operator.eq, cst.NotEqual: operator.ne, cst.LessThan: operator.lt,
    cst.LessThanEqual: operator.le, cst.GreaterThan: operator.gt,
    cst.GreaterThanEqual: operator.ge,
}


def _constant_index(node: cst.Subscript) -> bool:
    """Whether a subscript's index is one literal string or integer (the same slot every
    time the statement runs)."""
    return len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) and \
        (isinstance(node.slice[0].slice.value, cst.SimpleString) or
         literal_int(node.slice[0].slice.value) is not None)


def _additive_terms(node) -> list:
    """The terms of a sum (``a * x + b - c``: ``a * x``, ``b``, ``c``)."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator,
                                                            (cst.Add, cst.Subtract)):
        return _additive_terms(node.left) + _additive_terms(node.right)
    return [node]


def _stored_term(stmt, target):
    """What ``d[k] = ...`` on line ``stmt`` adds to ``d``: the assigned value, or, for a
    sum with a term that reads ``d`` (``d.get(k, 0) + loss[k]``, ``d[k] + loss``), its
    other term; None when not one expression."""
    assign = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and \
        len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign) else None
    if assign is None or assign.targets[0].target is not target:
        return None
    terms = _additive_terms(assign.value)
    others = [t for t in terms if not m.findall(t, m.MatchIfTrue(
        lambda n: n.deep_equals(target.value)))]
    return others[0] if len(terms) > 1 and len(others) == 1 else assign.value


def _reads_itself(term, target) -> bool:
    """Whether a term of a sum is ``target`` itself, or it scaled by a number or a name
    (``0.95 * avg``, ``avg * decay``, ``avg / 2``)."""
    def same(n) -> bool:
        return n.deep_equals(target)
    if same(term):
        return True
    if isinstance(term, cst.BinaryOperation) and isinstance(
            term.operator, (cst.Multiply, cst.Divide)):
        scale = (cst.Integer, cst.Float, cst.Name, cst.Attribute)
        return same(term.left) and isinstance(term.right, scale) or \
            isinstance(term.operator, cst.Multiply) and same(term.right) and \
            isinstance(term.left, scale)
    return False


def named_tuple(fields: tuple, pos, kw) -> Val:
    """A named tuple of ``fields`` made from a call's arguments, positional then by name
    (a field not given holds its default, not known here)."""
    given = dict(zip(fields, (v for v, _ in pos)))
    given.update((k, v) for k, (v, _) in kw.items() if k in fields)
    elts = tuple(given.get(f, UNKNOWN) for f in fields)
    return Val("tuple", frozenset().union(*(v.segs for v in elts)), any(v.leaf for v in elts),
               TupleType(fields), elts, src=merge_src(list(elts)))

