"""Python semantics: simple statements in execution order, expressions, names and
attributes, containers (compound statements: :mod:`gradguard.analysis.control_flow`;
calls: :mod:`gradguard.analysis.calls`)."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst
import libcst.matchers as m

from gradguard.analysis import torchapi as T
from gradguard.analysis.frames import (ClassInfo, FuncRef, TupleType, children_of, dotted,
                                       is_global, literal_int, string_value)
from gradguard.analysis.param_names import picked_by_name
from gradguard.analysis.known_numbers import (COMPARISONS, NUMBERS, SOME_INT, bounded_compare, int_of, is_int,
                                              int_op, known_int, known_number, number_of,
                                              range_length)
from gradguard.analysis.values import (EMPTY, MODEL_OUTPUT, MODEL_PART, Alts, NONE, SCALAR, UNKNOWN, Binding, dict_of,
                                       Cut, Val, dict_items, dict_sure_keys, element_shape, join,
                                       join_all, known_object, merge_src, module_refs, flag_modules,
                                       param_owners, scalars_only, store_parts,
                                       surely_not_none)


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


def names_read(node) -> set:
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


def _param_store(module: Val):
    """The storage of ``module.weight`` / ``.bias``: one of the module's parameters
    (``("param", module)``, what its optimizer's step changes in place), for one known
    module; else None."""
    return ("param", module.ref) if isinstance(module.ref, tuple) else None

def _parameter_container(v: Val) -> str | None:
    """"ParameterList" or "ParameterDict" for such an nn container, else None."""
    if v.kind == "module" and isinstance(v.ref, tuple) and v.ref[0] == "nn" and \
            v.ref[1] in ("ParameterList", "ParameterDict"):
        return v.ref[1]
    return None


def _module_attribute(attr: str) -> Val:
    """An attribute of an nn.Module the engine holds no value for: ``self.training`` is a
    bool, ``.data``/``.shape``-like names are no module, anything else may be a
    submodule."""
    if attr in T.MODULE_SCALARS:
        return SCALAR
    return Val("module") if attr not in T.CUT_ATTRIBUTES else UNKNOWN


MAX_ELTS = 16
"""Lists of known length up to this keep each element (``[0 for _ in range(n)]``)."""


def _is_list(v: Val) -> bool:
    """Whether a container value is a list (a list literal or comprehension, ``list()``,
    filled by ``append``), not a dict."""
    return v.kind == "container" and dict_items(v) is None and \
        (v.ref is None or isinstance(v.ref, tuple) and v.ref[0] == "elem")


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
        if key is None or key not in self.state.env:
            # (a ``global x`` only annotated at module level, ``x: gym.Env``: not bound)
            return UNKNOWN
        return self.read(key)

    def bind(self, name: str, val: Val, stmt=None) -> None:
        fid = self.frame.gid if name in self.frame.globals_ else self.frame.id
        self.state.env[(fid, name)] = Binding(val, stmt if stmt is not None else self.frame.stmt)
        self.released((fid, name), val)
        if val.kind == "module" and isinstance(val.ref, tuple) and \
                isinstance(stmt, cst.SimpleStatementLine) and val.ref not in self.module_names:
            # (an assignment: no loop target) the name and the frame that bound it
            self.module_names[val.ref] = (name, fid)

    def _rebound_accumulation(self, node, value, target, val: Val) -> None:
        """``acc = acc + t``, ``avg = 0.95 * avg + 0.05 * loss``: a running value rebound
        to a sum of its own old value (scaled or not) and new terms is ``acc += t``: the
        new terms' graphs join the old value's, and each rebinding keeps them all alive.
        ``node`` is the statement (or the ``setattr`` call) that rebinds ``target`` to
        ``value``; the old value may be read through another name that holds it (``old =
        getattr(self, name)``). Rebound to a conditional expression that starts it on the
        first pass (``acc = t if acc is None else acc + t``), the branch that adds to it."""
        value = _adding_branch(value)
        if value is None:
            return
        terms = _additive_terms(value)
        if not isinstance(target, (cst.Name, cst.Attribute)) or not val.segs or \
                len(terms) < 2 or dotted(target) is None:
            return
        key = self.key_of(target)
        old = self.state.env.get(key) if key is not None else None
        if old is None or old.val.kind in ("container", "tuple", "module"):
            return

        def is_old(n) -> bool:
            if n.deep_equals(target):
                return True
            held = self.state.env.get(self.lookup_key(n.value)) \
                if isinstance(n, cst.Name) else None
            return held is not None and bool(held.val.segs) and held.val.segs == old.val.segs
        own = [t for t in terms if _reads_itself(t, is_old)]
        if len(own) != 1 or any(
                m.findall(t, m.MatchIfTrue(is_old)) for t in terms if t is not own[0]):
            return
        others = [t for t in terms if t is not own[0]]
        # the graph the new terms bring (not only the sum's own nodes: ``x = x + scale *
        # grad`` of a gradient with no graph adds an AddBackward node, no term's graph)
        machinery, todo = set(), [value]
        while todo:
            n = todo.pop()
            if any(n is t for t in others):
                continue
            machinery.add(id(n))
            todo.extend(children_of(n))
        added = frozenset(s for s in val.segs - old.val.segs
                          if id(self.segs[s].node) not in machinery)
        if not added:
            return
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
                own = ("@", base.ref, node.attr.value)
                info = self._class_of(base) if own not in self.state.env else None
                # (an instance without an attribute of its own reads its class's)
                return (info is not None and self.class_slot(info, node.attr.value)) or own
            if base.kind == "class" and isinstance(base.ref, ClassInfo):
                return self.class_slot(base.ref, node.attr.value) or \
                    ("@", ("class", base.ref.key), node.attr.value)
        return None

    def _nested_class(self, info: ClassInfo, name: str) -> ClassInfo | None:
        """The class ``name`` defined in the body of class ``info`` of this module (``class
        cfg: class train: ...``), unless a class of that name is known elsewhere; else
        None."""
        body = info.node.body.body if isinstance(info.node.body, cst.IndentedBlock) and \
            info.gid == self.gid else ()  # (of this module's classes)
        node = next((st for st in body if isinstance(st, cst.ClassDef) and
                     st.name.value == name), None)
        if node is None:
            return None
        known = self.classes.get(name if self.gid == "G" else f"{self.gid}.{name}")
        return self.class_info(node) if known is None or known.node is node else None

    def class_slot(self, info: ClassInfo, attr: str):
        """The env key of the class attribute ``attr`` of ``info`` (on the first class of
        its method resolution order that has it bound), None when none has it: a class
        attribute is one object, shared by the class and all its instances (``cache =
        {}`` in a class body, filled through ``cls.cache`` or ``self.cache``)."""
        for c in self._mro(info):
            key = ("@", ("class", c.key), attr)
            if key in self.state.env:
                return key
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
            elif (val.kind == "tensor" and val.ref == MODEL_OUTPUT or
                  val.kind == "unknown" and val.ref is None and val.segs) and len(elts) > 1:
                # ``loss, count = model(batch)`` of a model whose class is not known (or
                # ``loss, info = loss_fn(out, batch)`` of a function not known): a tuple,
                # whose first part is the output; the others may be tensors of its graph
                # (``out, hidden = rnn(x, hidden)``) or plain numbers (``.item()`` stats)
                self.store(elts[0], replace(val, ref=None), stmt)
                for e in elts[1:]:
                    self.store(e, Val("unknown", val.segs, val.leaf, ref=MODEL_PART), stmt)
            else:
                item = self._element(val)
                for e in elts:
                    self.store(e, item, stmt)
        elif isinstance(target, cst.Attribute):
            base = self.eval(target.value)
            if target.attr.value == "requires_grad" and val.kind == "scalar" and \
                    isinstance(val.ref, bool) and (val.ref or
                                                   not isinstance(target.value, cst.Attribute)):
                # ``for p in net.parameters(): p.requires_grad = False``, over
                # ``list(a.parameters()) + list(b.parameters())``: each module's (not
                # ``net.bias.requires_grad = False``: one parameter, the weight still does)
                for r in flag_modules(base.store, val.ref):
                    self.set_frozen(r, val.ref, target)
            elif target.attr.value == "requires_grad" and val.ref is False and \
                    isinstance(base.store, tuple) and base.store[0] == "param":
                self.maybe_frozen.add(base.store[1])  # (one parameter of it: ``net.bias``)
            elif target.attr.value == "requires_grad" and not isinstance(val.ref, bool) and \
                    not isinstance(target.value, cst.Attribute):
                # ``for n, p in net.named_parameters(): p.requires_grad = "head" in n``
                for r in flag_modules(base.store, None):
                    self.set_frozen(r, None, target)
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
            if target.attr.value == "inplace" and base.kind == "module" and \
                    val.kind == "scalar" and isinstance(val.ref, bool):
                # ``m.inplace = True`` on a built nn.ReLU / Dropout: its forward reads the
                # flag (torch/nn/modules/activation.py), so from now on it runs in place
                for r in module_refs(base)[:1] if len(module_refs(base)) == 1 else ():
                    if r[0] == "nn" and r[1] in T.INPLACE_MODULES:
                        self.inplace_flags[r] = (val.ref, stmt.body[0] if isinstance(
                            stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None)
            if base.kind == "module" and isinstance(base.ref, tuple) and val.kind == "tensor" \
                    and isinstance(val.store, tuple) and val.store[0] == "p" and val.leaf:
                # ``self.weight = nn.Parameter(...)``: a parameter of this module (its
                # optimizer's step changes it, a graph through it reaches the module)
                val = replace(val, store=("param", base.ref))
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
                if old is not None and old.val.kind == "module" and val.kind == "module" and \
                        module_refs(old.val) and module_refs(val) and \
                        not set(module_refs(old.val)) & set(module_refs(val)):
                    # a submodule replaced (``self.embed = nn.Embedding(...)`` in a reset()):
                    # an optimizer built before holds the old one's parameters
                    for r in module_refs(old.val):
                        self.replaced_modules[r] = (next(self._ids), tuple(
                            (f.stmt, f.func) for f in self.frames),
                            tuple(p for _, p in self.loop_stack))
                self.state.env[akey] = Binding(val, stmt)
                self.released(akey, val)
                if val.kind == "module":
                    self.submodules.setdefault(base.ref, set()).update(module_refs(val))
                    if isinstance(val.ref, tuple):
                        self.module_names.setdefault(val.ref, (
                            f"{dotted(target.value)}.{target.attr.value}", None))
            elif base.kind == "class" and isinstance(base.ref, ClassInfo):
                # ``Memory.cache = []``, ``cls.cache = {}``: the class's attribute
                self.state.env[self.key_of(target)] = Binding(val, stmt)
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
            index = self.eval(target.slice[0].slice.value) if len(target.slice) == 1 and \
                isinstance(target.slice[0].slice, cst.Index) else None
            if base.kind == "module" and isinstance(base.ref, tuple) and \
                    base.ref[:1] == ("nn",) and base.ref[1] == "ModuleDict" and \
                    index is not None and isinstance(index.ref, tuple) and \
                    index.ref[0] == "str" and val.kind == "module":
                # ``layer.adapters[name] = Adapter(...)``: a child of that name (as
                # ``md.name``), and a submodule of the dict
                self.state.env[("@", base.ref, index.ref[1])] = Binding(val, stmt)
                self.submodules.setdefault(base.ref, set()).update(module_refs(val))
                return
            if base.kind == "tensor" and base.ref == MODEL_OUTPUT and index is not None and \
                    isinstance(index.ref, tuple) and index.ref[0] == "str":
                # a string key: what a model of unknown class returned is a dict
                base = self._as_container(target.value, base)
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
                    items = dict_items(old.val)
                    prev = dict(zip(*items)).get(index.ref[1])

                    def holds_prev(n) -> bool:  # (``prev = d[k]`` read before)
                        b = self.state.env.get(self.lookup_key(n.value)) \
                            if isinstance(n, cst.Name) else None
                        return b is not None and prev is not None and bool(prev.segs) and \
                            b.val.segs == prev.segs
                    term = _stored_term(stmt, target, holds_prev)
                    if prev is not None and prev.segs and prev.segs < val.segs and \
                            term is not None:
                        # ``d[k] = d.get(k, 0) + loss[k]``: the slot's new value is made
                        # from its old one, a running total whose graph keeps growing
                        # (``d[k] += x`` is recorded as an augmented assignment)
                        self._accumulate(target, target.value,
                                         Val("tensor", val.segs - prev.segs), term)
                    if old.val.alias is not None:
                        # an element of a list of dicts, the loop's variable: the list's
                        # elements get the key (``for t in reversed(D): t["adv"] = a``)
                        slot = replace(slot, alias=old.val.alias)
                        self._key_each_element(old.val.alias, index.ref[1], val)
                    self.state.env[key] = Binding(slot, old.stmt)
                elif old.val.kind == "container" and old.val.segs and val.kind == "container" \
                        and not val.grad and (val.elts == () or dict_items(val) in ((), ((), ()))):
                    # ``records[name] = []``: a slot emptied; which graphs it held is not
                    # known, so the container lets go of them all
                    self.state.env[key] = Binding(self._strip(old.val), old.stmt)
                elif old.val.kind in ("container", "tuple", "unknown", "none"):
                    if old.val.kind in ("container", "tuple") and not _constant_index(target) \
                            and not _is_list(old.val):
                        # (``d["loss"] = loss`` replaces one slot each time round: the
                        # previous value's graph is let go; ``d[step] = loss`` piles up;
                        # ``pool[idx] = image`` on a list replaces an element: a list
                        # never grows by item assignment)
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
                    self._note_slot(key, target, val)
        elif isinstance(target, cst.StarredElement):
            self.store(target.value, val, stmt)

    def _note_slot(self, key, target: cst.Subscript, val: Val) -> None:
        """``d[k] = v`` with ``k`` a variable: until ``d`` or ``k`` is bound again, ``d[k]``
        is ``v`` (``losses[task] = ...; losses[task].backward()`` in a loop over tasks
        reads this task's loss, not an earlier one's)."""
        index = target.slice[0].slice.value if len(target.slice) == 1 and \
            isinstance(target.slice[0].slice, cst.Index) else None
        at = self.lookup_key(index.value) if isinstance(index, cst.Name) else None
        if at is not None and at in self.state.env:
            self.slot_writes[(key, index.value)] = (self.state.env[key],
                                                     self.state.env[at], val)

    def _slot_read(self, node: cst.Subscript) -> Val | None:
        """What :meth:`_note_slot` says ``d[k]`` holds, when neither was bound since."""
        index = node.slice[0].slice.value if len(node.slice) == 1 and \
            isinstance(node.slice[0].slice, cst.Index) else None
        if not isinstance(index, cst.Name) or not isinstance(node.value, (cst.Name,
                                                                          cst.Attribute)):
            return None
        key = self.key_of(node.value)
        kept = self.slot_writes.get((key, index.value)) if key is not None else None
        at = self.lookup_key(index.value)
        if kept is None or at is None or self.state.env.get(key) is not kept[0] or \
                self.state.env.get(at) is not kept[1]:
            return None
        return kept[2]

    def _key_each_element(self, holder, name: str, val: Val) -> None:
        """The list of dicts of known string keys at env key ``holder`` after a loop over
        it stored ``val`` under ``name`` in its elements: each element may hold it."""
        b = self.state.env.get(holder)
        if b is None or b.val.kind != "container":
            return

        def keyed(elem: Val) -> Val:
            items = dict_items(elem)
            if not items:
                return elem
            values = dict(zip(*items))
            values[name] = join(values[name], val) if name in values else val
            return dict_of(tuple(values), tuple(values.values()), dict_sure_keys(elem))
        ref = b.val.ref
        if isinstance(ref, tuple) and ref[0] == "elem" and isinstance(ref[1], Val):
            ref = ("elem", keyed(ref[1]))
        elts = tuple(keyed(e) for e in b.val.elts) if b.val.elts else b.val.elts
        if ref is b.val.ref and elts == b.val.elts:
            return
        self.state.env[holder] = Binding(replace(b.val, ref=ref, elts=elts,
                                                 segs=b.val.segs | val.segs,
                                                 leaf=b.val.leaf or val.leaf), b.stmt)

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
        return dict_of(tuple(values), tuple(values.values()),
                       dict_sure_keys(old) | {index.ref[1]})

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
        if _parameter_container(container) == "ParameterDict":
            return SCALAR  # (its keys)
        return self._element(container)

    def _element(self, container: Val) -> Val:
        """What iterating over / indexing a container gives (elements joined)."""
        if container.kind == "scalar" and container.ref == NUMBERS.ref:
            return NUMBERS  # (a row of ``t.tolist()``)
        if container.elts:
            return join_all(container.elts)
        if container.kind == "container" and isinstance(container.ref, tuple) and \
                container.ref[0] == "range":
            return SOME_INT
        if isinstance(container.ref, tuple) and container.ref[0] == "elem":
            return container.ref[1]  # a list of tuples of known parts
        if _parameter_container(container) is not None:
            # an element of an nn.ParameterList (a value of a ParameterDict): one of the
            # parameters it registers
            return Val("tensor", leaf=not self.no_grad and container.ref not in self.frozen,
                       store=_param_store(container))
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
            return Val(kind, container.segs, container.leaf, store=container.store,
                       src=container.src if kind == "tensor" or not container.segs else None)
        return Val(container.kind if container.kind == "tensor" else "unknown",
                   container.segs, container.leaf, store=container.store,
                   src=container.src if container.kind == "tensor" or not container.segs
                   else None)

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
                    frame.closures.update(names_read(stmt.body))
                self.bind(stmt.name.value, Val("func", ref=FuncRef(
                    stmt, frame.id, no_grad=self._decorated_no_grad(stmt), gid=frame.gid)), stmt)
            elif isinstance(stmt, cst.ClassDef):
                info = self.class_info(stmt)
                for name, value in info.attrs.items():
                    if isinstance(value, (cst.List, cst.Dict, cst.Set)):
                        # a mutable class attribute: one object for the class
                        self.state.env[("@", ("class", info.key), name)] = Binding(
                            self.eval(value), stmt)
                self.bind(stmt.name.value, Val("class", ref=info), stmt)
            elif isinstance(stmt, cst.Match):
                self.exec_match(stmt)
        finally:
            frame.stmt = prev

    def exec_small(self, small: cst.BaseSmallStatement, line: cst.SimpleStatementLine) -> None:
        if isinstance(small, cst.Assign):
            val = self.eval(small.value)
            if len(small.targets) == 1:
                self._rebound_accumulation(small, small.value, small.targets[0].target, val)
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

    def _tensor_test(self, test: cst.BaseExpression) -> tuple[str | None, bool]:
        """``(name, holds)`` for a test whether the variable ``name`` is a tensor
        (``torch.is_tensor(v)``, ``isinstance(v, torch.Tensor)``; ``holds``: False under
        ``not``), else ``(None, True)``."""
        holds = True
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test, holds = test.expression, not holds
        if not isinstance(test, cst.Call) or not test.args or \
                not isinstance(test.args[0].value, cst.Name) or test.args[0].keyword:
            return None, True
        func = self.eval(test.func)
        if len(test.args) == 1 and func.kind == "ns" and func.ref == "torch.is_tensor":
            return test.args[0].value.value, holds
        if len(test.args) == 2 and isinstance(test.func, cst.Name) and \
                test.func.value == "isinstance" and self.lookup_key("isinstance") is None:
            kind = self.eval(test.args[1].value)
            if kind.kind == "ns" and kind.ref == "torch.Tensor":
                return test.args[0].value.value, holds
        return None, True

    def _not_tensor(self, name: cst.Name) -> Val | None:
        """``name`` where a test said it is no tensor: None when it surely is one (the
        branch does not run); what the engine does not know the type of holds no graph
        it can name (``v if not torch.is_tensor(v)`` of a dict's values)."""
        v = self.eval(name)
        if v.kind == "tensor":
            return None
        return Val("unknown") if v.kind == "unknown" else v

    @staticmethod
    def is_tensor(v: Val) -> Val:
        """``torch.is_tensor(v)``, ``isinstance(v, torch.Tensor)``: True for a tensor,
        False for a Python list, number or None, else an unknown bool."""
        if v.kind == "tensor":
            return Val("scalar", ref=True)
        if v.kind in ("container", "tuple", "scalar", "none"):
            return Val("scalar", ref=False)
        return SCALAR

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
        if len(vals) == 2 and vals[1].kind == "ns" and vals[1].ref == "torch.Tensor" and \
                (known := self.is_tensor(vals[0])) is not SCALAR:
            return known
        found = self.nn_isinstance(vals[0], vals[1]) if len(vals) == 2 else None
        if found is not None:
            return found
        if len(vals) != 2 or vals[1].kind != "class" or vals[0].kind not in ("module", "object") \
                or not isinstance(vals[1].ref, ClassInfo):
            return SCALAR  # (a name bound to one of several classes: ``for cls in (A, B)``)
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
            if isinstance(node, cst.Float):
                # (a default ``std: float = 0.0`` is then known: ``if std > 0`` decided)
                return known_number(node.evaluated_value) or SCALAR
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
                r = int_op(op, a, b)
                return known_int(r) if r is not None else SCALAR
            if op == "Multiply" and left.kind == "container" and left.elts and \
                    b is not None and 0 <= b * len(left.elts) <= MAX_ELTS and \
                    not left.segs and not left.leaf:
                # ``[0] * n``: a list of n of the same element
                return replace(left, elts=left.elts * b)
            if left.kind in ("container", "tuple") and op == "Add":
                elts = left.elts + right.elts if left.kind == right.kind and \
                    left.elts is not None and right.elts is not None and \
                    left.ref is None and right.ref is None and \
                    len(left.elts) + len(right.elts) <= MAX_ELTS else None
                # (``STYLE + CONTENT`` of two lists of known elements: those, in order;
                # ``list(a.parameters()) + list(b.parameters())``: both modules' parameters)
                # (every parameter of each when both are: ``("allparams", modules)``)
                owners = [param_owners(v) for v in (left, right)]
                full = all(isinstance(v.store, tuple) and v.store[0] in ("param", "allparams")
                           for v in (left, right))
                store = ("allparams" if full else "params", owners[0] | owners[1]) \
                    if None not in owners and (owners[0] or owners[1]) else None
                # (of two lists of numbers whose elements are not all known: numbers)
                shape = ("elem", SCALAR) if elts is None and scalars_only(left) and \
                    scalars_only(right) else None
                return Val(left.kind if elts is not None else "container",
                           left.segs | right.segs, left.leaf or right.leaf, shape, elts=elts,
                           store=store)
            if op in ("Add", "Subtract", "Multiply", "FloorDivide", "Modulo") and \
                    is_int(left) and is_int(right):
                # ``t - 1`` of a loop counter: an int (``table[t - 1]`` indexes a view)
                return Val("scalar", ref=SOME_INT.ref, src=merge_src((left, right)))
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
            n = number_of(v)
            if n is not None and isinstance(node.operator, (cst.Minus, cst.Plus)):
                return known_number(-n if isinstance(node.operator, cst.Minus) else n) or SCALAR
            if v.kind == "scalar":
                return Val("scalar", src=v.src)  # ``-x.item()``: a number
            return self.op(node, "", [v], saves=False)
        if isinstance(node, cst.Comparison):
            left = self.eval(node.left)
            rights = [self.eval(c.comparator) for c in node.comparisons]
            a, b = number_of(left), number_of(rights[0]) if len(rights) == 1 else None
            compare = COMPARISONS.get(type(node.comparisons[0].operator))
            if a is not None and b is not None and compare is not None:
                # two numbers of known value (``update_step == 1``, ``k < n``, ``std > 0``
                # of a default ``std=0.0``): a known bool
                return Val("scalar", ref=compare(a, b))
            if len(rights) == 1 and compare is not None:
                known = bounded_compare(compare, left, rights[0])
                if known is not None:
                    return Val("scalar", ref=known)
            if len(rights) == 1 and isinstance(node.comparisons[0].operator,
                                               (cst.Is, cst.IsNot)) and \
                    rights[0].kind == "none":
                # ``x is None`` of None, or of a number, string or bool of known value (a
                # join with None forgets the value: values.join)
                if left.kind == "none" or surely_not_none(left):
                    return Val("scalar", ref=(left.kind == "none") == isinstance(
                        node.comparisons[0].operator, cst.Is))
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
            tested, holds = self._tensor_test(node.test)
            vals = [self._not_tensor(e) if tested is not None and isinstance(e, cst.Name) and
                    e.value == tested and holds is not sure else self.eval(e)
                    for e, sure in ((node.body, True), (node.orelse, False))]
            vals = [v for v in vals if v is not None]
            return join(*vals) if len(vals) == 2 else vals[0]
        if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
            vals = [self.eval(e.value) for e in node.elements]
            segs = frozenset().union(*(v.segs for v in vals)) if vals else EMPTY
            starred = any(isinstance(e, cst.StarredElement) for e in node.elements)
            return Val("tuple" if isinstance(node, cst.Tuple) else "container", segs,
                       any(v.leaf for v in vals), None, None if starred else tuple(vals),
                       src=None if starred else merge_src(vals))
        if isinstance(node, cst.Dict):
            vals, keys = [], []
            for e in node.elements:
                if isinstance(e, cst.DictElement):
                    k = self.eval(e.key)
                    if isinstance(e.key, cst.SimpleString):
                        keys.append(string_value(e.key))
                    elif k.kind == "scalar" and isinstance(k.ref, tuple) and k.ref[0] == "str":
                        keys.append(k.ref[1])  # (``{LOSS: loss}``, LOSS a known string)
                vals.append(self.eval(e.value))
            segs = frozenset().union(*(v.segs for v in vals)) if vals else EMPTY
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
        if base.kind == "class" and isinstance(base.ref, ClassInfo):
            key = self.class_slot(base.ref, attr)
            if key is not None:
                return self.state.env[key].val
            # a constant of a class used as a namespace (``cfg.train.lr``), a class in it
            v = self._class_attr(base.ref, attr)
            if v is not None:
                return v
            inner = self._nested_class(base.ref, attr)
            if inner is not None:
                return Val("class", ref=inner)
        if base.kind in ("object", "module") and isinstance(base.ref, Alts):
            # one of a few known objects (``for layer in layers`` where passes joined):
            # that attribute of each, joined
            return join_all([self.attribute(Val(base.kind, ref=r), attr, node)
                             for r in base.ref.options])
        if base.kind in ("object", "module") and base.ref is not None and \
                not isinstance(base.ref, str):
            b = self.state.env.get(("@", base.ref, attr))
            if b is not None:
                return b.val
            info = self._class_of(base)
            key = self.class_slot(info, attr) if info is not None else None
            if key is not None:
                return self.state.env[key].val
            if info is not None:
                m = self._method(info, attr)
                getter = _property_getter(m, info, self._mro) if m is not None else None
                if getter is not None:
                    # a ``@property``: reading it runs its getter on this object; a
                    # ``@cached_property`` keeps the first value in the object's dict, so
                    # later reads see that one (and the graph it holds)
                    func, cached = getter
                    v = self.call_ref(None, self.method_ref(func, info), [], {},
                                      Val(base.kind, ref=base.ref))
                    if cached:
                        self.state.env[("@", base.ref, attr)] = Binding(v, self.frame.stmt)
                    return v
                if m is not None:
                    # a bound method taken as a value (a hook, a callback): called later,
                    # it runs on this object
                    static, first = self.bound_to(m, info, Val(base.kind, ref=base.ref))
                    ref = self.method_ref(m, info, static=static)
                    if not static:
                        ref = replace(ref, bound=first)
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
            if attr == "requires_grad" and base.kind == "tensor" and (
                    base.segs or base.leaf and not (
                        isinstance(base.store, tuple) and base.store[0] == "param" and
                        base.store[1] in self.maybe_frozen)):
                # a tensor with a graph, or a leaf that requires grad (a parameter of a
                # module no path froze): known True, whatever the grad mode
                return Val("scalar", ref=True)
            if attr == "data" and (base.kind == "tensor" or base.grad):
                # the same storage under a version counter of its own: in-place changes
                # through it are not seen by autograd (torch: ``x.data`` is
                # ``x.variable_data()``), nor do they give ``x`` a graph
                return self.cut_value("data", node, base, Val(
                    "tensor", store=("data", base.store) if base.store is not None else None))
            # (``b, c, h, w = x.shape``: Python ints, a torch.Size being a tuple of them)
            return Val("tensor") if attr in ("data", "grad") else \
                NUMBERS if attr == "shape" else SCALAR
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
        # (a field of what may be a number, ``info.approx_kl``, may be one too)
        return UNKNOWN if not base.segs else Val(
            "unknown", base.segs, base.leaf, MODEL_PART if base.ref == MODEL_PART else None)

    def eval_subscript(self, node: cst.Subscript) -> Val:
        kept = self._slot_read(node)
        if kept is not None:
            return kept
        base = self.eval(node.value)
        index_vals = []
        for el in node.slice:
            if isinstance(el.slice, cst.Index):
                index_vals.append(self.eval(el.slice.value))
            else:
                for part in (el.slice.lower, el.slice.upper, el.slice.step):
                    if part is not None:
                        self.eval(part)
        if base.kind == "scalar" and base.ref == NUMBERS.ref:
            return NUMBERS  # (``rows[b]`` of ``rows = t.tolist()``)
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
        if base.kind == "module" and not base.elts and isinstance(base.ref, tuple) and \
                base.ref[:1] == ("nn",) and base.ref[1] in T.INDEXED_MODULE_CONTAINERS and \
                len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            # an element of an nn.ModuleDict / ModuleList whose children are not known
            # (built by a comprehension): one of its submodules, whose call builds a graph
            # through the container's parameters
            child = ("ext", ("item", base.ref))
            self.submodules.setdefault(base.ref, set()).add(child)
            return Val("module", ref=child)
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
                items = dict_items(el)
                if items is not None and isinstance(el.ref, tuple):
                    # (a dict of known keys: its keys, each value what all elements share)
                    vals = tuple(replace(v, segs=v.segs - base.each, each=v.each - base.each)
                                 for v in items[1])
                    return Val(el.kind, el.segs - base.each, el.leaf,
                               (el.ref[0], el.ref[1], vals) + tuple(el.ref[3:]), store=el.store)
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
        if base.kind == "tensor" and base.store is not None and \
                not self._basic_index(node, index_vals):
            # advanced indexing (a tensor or array of indices) copies: a new storage
            # (``poses = self.poses[img_idxs]``, written in place after, leaves the buffer)
            return Val("tensor", store=self.fresh_store(), src=base.src)
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
                                   iv.kind == "scalar" and iv.ref in (SOME_INT.ref, NUMBERS.ref)):
                continue  # (a Python number an index takes is an int: else torch raises)
            v = s.value
            if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus):
                v = v.expression
            if isinstance(v, cst.Integer) or (isinstance(v, cst.Name) and v.value == "None") \
                    or isinstance(v, cst.Ellipsis):
                continue
            return False
        return True

    def _keyed_entries(self, node, first: Val) -> list | None:
        """For a dict comprehension whose key is its loop variable, over a few known
        distinct strings (``{v: ... for v in VIEWS}``) or the ``items()`` of a dict whose
        keys are all known (``{k: ... for k, fn in metrics.items()}``): ``(key, what the
        loop target takes)`` for each entry, in order; else None."""
        if not isinstance(node, cst.DictComp) or not isinstance(node.key, cst.Name) or \
                node.for_in.inner_for_in is not None or node.for_in.ifs:
            return None
        target = node.for_in.target
        if isinstance(target, cst.Name) and target.value == node.key.value:
            keys = known_strings(first)
            return [(k.ref[1], k) for k in keys] if keys is not None else None
        if isinstance(target, cst.Tuple) and len(target.elements) == 2 and \
                isinstance(target.elements[0].value, cst.Name) and \
                target.elements[0].value.value == node.key.value and \
                isinstance(node.for_in.iter, cst.Call) and \
                isinstance(node.for_in.iter.func, cst.Attribute) and \
                node.for_in.iter.func.attr.value == "items":
            pairs = self._dict_entries(node.for_in.iter)
            return [(p.elts[0].ref[1], p) for p in pairs] if pairs is not None else None
        return None

    def eval_comprehension(self, node) -> Val:
        env, fid = self.state.env, self.frame.id
        bound = [(fid, name) for name in self.code_fact(_comprehension_names, node)]
        bound = [k for k in bound if k not in env]  # (those it binds anew are its own)
        first = self.eval(node.for_in.iter)
        picked = picked_by_name(self, node, first)
        if picked is not None:
            return picked  # (``[p for n, p in m.named_parameters() if "head" in n]``)
        each = self._over_known_modules(node, first)
        passes = each is None and self._builds_each(node, first)
        if passes:
            each = [known_int(i) for i in range(*first.ref[2])]
        if each is not None:
            # ``(Adam(m.parameters()) for m in (actor, critic))``, ``[h(x) for h in
            # self.heads]`` over known modules: the element for each module, in order;
            # ``[Agent(i) for i in range(3)]``: each pass builds an object of its own
            start = next(self._ids)
            vals, saved_passes = [], self.unrolled_passes
            for k, element in enumerate(each):
                if passes:
                    self.unrolled_passes = saved_passes + ((id(node), k),)
                try:
                    self.store(node.for_in.target, element, node.for_in)
                    vals.append(self.eval(node.elt))
                finally:
                    self.unrolled_passes = saved_passes
            for k in bound:
                self.state.env.pop(k, None)
            out = self._generated(vals, start, lazy=isinstance(node, cst.GeneratorExp))
            return replace(out, elts=tuple(vals))
        entries = self._keyed_entries(node, first)
        if entries is not None:
            # ``{v: head(x[v]) for v in VIEWS}``, ``{name: fn(x) for name, fn in
            # metrics.items()}`` over known keys: a dict of those keys, each with its own
            # value (built in a pass of its own)
            vals, saved_passes = [], self.unrolled_passes
            for k, (_, entry) in enumerate(entries):
                self.unrolled_passes = saved_passes + ((id(node), k),)
                try:
                    self.store(node.for_in.target, entry, node.for_in)
                    vals.append(self.eval(node.value))
                finally:
                    self.unrolled_passes = saved_passes
            for k in bound:
                self.state.env.pop(k, None)
            return dict_of(tuple(name for name, _ in entries), tuple(vals))
        for comp in self._comp_fors(node.for_in):
            it = first if comp is node.for_in else self.eval(comp.iter)
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
    def _over_known_modules(node, it: Val) -> list | None:
        """The modules or objects a list comprehension or generator expression with one
        ``for`` and no ``if`` walks, when its iterable (``it``) is a list or tuple of a few
        known ones, or of tuples with one (``for m in (self.actor, self.critic)``, ``for
        agent in agents``, ``for x, conv in zip(xs, self.convs)``); else None."""
        if isinstance(node, cst.DictComp) or node.for_in.inner_for_in is not None or \
                node.for_in.ifs or it.kind not in ("container", "tuple"):
            return None
        mods = list(it.elts or ())
        if not 2 <= len(mods) <= 8 or not all(known_object(m) or (
                m.kind == "tuple" and m.elts and any(map(known_object, m.elts)))
                for m in mods):
            return None
        return mods

    @staticmethod
    def _builds_each(node, it: Val) -> bool:
        """A list comprehension or generator expression with one ``for`` and no ``if``
        over a ``range`` of a few known ints whose element is a call
        (``[Agent(dims[i]) for i in range(n_agents)]``): each pass builds its own
        object, so the passes are run one by one."""
        n = range_length(it)
        return not isinstance(node, cst.DictComp) and node.for_in.inner_for_in is None and \
            not node.for_in.ifs and isinstance(node.elt, cst.Call) and \
            n is not None and 2 <= n <= 8 and len(it.ref) == 3

    @staticmethod
    def _comp_fors(comp):
        while comp is not None:
            yield comp
            comp = comp.inner_for_in

def _property_getter(method, info: ClassInfo, mro) -> tuple | None:
    """``(getter, cached)`` when the method ``method`` found for an attribute of ``info``
    is a property: the ``def`` decorated ``@property`` (a ``@name.setter`` defined after
    it has the same name: its getter is the one before), or ``@cached_property``
    (``cached``: functools keeps the first value in the instance); else None."""
    def kind(func):
        for d in func.decorators:
            name = dotted(d.decorator) or ""
            if name in ("property", "builtins.property"):
                return "property"
            if name.rsplit(".", 1)[-1] == "cached_property":
                return "cached"
            if isinstance(d.decorator, cst.Attribute) and d.decorator.attr.value in (
                    "setter", "deleter"):
                return "accessor"
        return None
    k = kind(method)
    if k in ("property", "cached"):
        return method, k == "cached"
    if k != "accessor":
        return None
    for c in mro(info):
        body = c.node.body.body if isinstance(c.node.body, cst.IndentedBlock) else ()
        for st in body:
            if isinstance(st, cst.FunctionDef) and st.name.value == method.name.value and \
                    kind(st) == "property":
                return st, False
    return None


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


def _adding_branch(value):
    """``value``, or, for a conditional expression that starts a running value on the
    first pass and adds to it otherwise (``t if acc is None else acc + t``), its one branch
    that is a sum; None when neither or both are."""
    if not isinstance(value, cst.IfExp):
        return value
    sums = [b for b in (value.body, value.orelse) if len(_additive_terms(b)) >= 2]
    return sums[0] if len(sums) == 1 else None


def _stored_term(stmt, target, holds_prev=lambda n: False):
    """What ``d[k] = ...`` on line ``stmt`` adds to ``d``: the assigned value, or, for a
    sum with a term that reads ``d`` (``d.get(k, 0) + loss[k]``, ``d[k] + loss``) or a
    name holding the slot's old value (``holds_prev``: ``prev = d[k]``), its other term;
    for a conditional expression that starts the slot on the first pass (``loss if prev
    is None else beta * prev + (1 - beta) * loss``), that of its sum; None when not one
    expression."""
    assign = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and \
        len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign) else None
    if assign is None or assign.targets[0].target is not target:
        return None
    value = _adding_branch(assign.value)
    if value is None:
        return None
    terms = _additive_terms(value)
    others = [t for t in terms if not m.findall(t, m.MatchIfTrue(
        lambda n: n.deep_equals(target.value) or holds_prev(n)))]
    return others[0] if len(terms) > 1 and len(others) == 1 else value


def _reads_itself(term, same) -> bool:
    """Whether a term of a sum is the target itself (``same`` of it), or it scaled by a
    number or a name (``0.95 * avg``, ``avg * decay``, ``avg / 2``)."""
    if same(term):
        return True
    if isinstance(term, cst.BinaryOperation) and isinstance(
            term.operator, (cst.Multiply, cst.Divide)):
        scale = (cst.Integer, cst.Float, cst.Name, cst.Attribute)
        return same(term.left) and isinstance(term.right, scale) or \
            isinstance(term.operator, cst.Multiply) and same(term.right) and \
            isinstance(term.left, scale)
    return False


def known_strings(seq: Val) -> list | None:
    """The elements of ``seq`` when it is known to hold a few distinct known strings (a
    list or tuple of them, or the keys of a dict of known keys), in order; else None."""
    items = dict_items(seq)
    if items is not None:
        if not items or seq.ref[3] != frozenset(items[0]) or not 0 < len(items[0]) <= MAX_ELTS:
            return None
        return [Val("scalar", ref=("str", k)) for k in items[0]]
    elts = seq.elts if seq.kind in ("container", "tuple") else None
    if not elts or len(elts) > MAX_ELTS or not all(
            e.kind == "scalar" and isinstance(e.ref, tuple) and e.ref[0] == "str" for e in elts):
        return None
    return list(elts) if len({e.ref[1] for e in elts}) == len(elts) else None
