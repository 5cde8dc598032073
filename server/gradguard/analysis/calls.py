"""Calls: a call's arguments, what it calls (the file's own functions and classes,
interpreted inline in a new frame; builtins; torch through
:mod:`gradguard.analysis.torch_semantics`), classes and their instances."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from gradguard.analysis import torchapi as T
from gradguard.analysis.frames import (MAX_DEPTH, MAX_FOREIGN_DEPTH, MAX_FOREIGN_STEPS, ClassInfo,
                                       Frame, FuncRef, Partial, TupleType, calls_in, dotted,
                                       is_global, literal_int, self_assigned, string_value,
                                       walk_scope)
from gradguard.analysis.known_numbers import (COUNT, int_of, known_int, known_number, number_of,
                                              numeric_call, range_length)
from gradguard.analysis.values import (CALLABLE_KINDS, EMPTY, MODEL_PART, Alts, NONE, SCALAR, UNKNOWN, Binding,
                                       Val, dict_items, dict_of, dict_of_pairs, dict_sure_keys, join,
                                       join_all, join_states, merge_src, module_refs,
                                       param_owners, store_parts)


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


def _sorted_or_set(name: str, elts: tuple) -> tuple | None:
    """The elements of ``sorted(xs)`` / ``set(xs)`` of strings or of ints of known value
    (``sorted(set(STYLE + CONTENT))``): sorted, or each once in the order given; None
    for other elements (an order not known)."""
    known = [_plain_value(e) for e in elts]
    if None in known or len({type(k) for k in known}) > 1:
        return None
    if name == "set":
        return tuple(dict.fromkeys(elts))
    return tuple(e for _, e in sorted(zip(known, elts), key=lambda p: p[0]))


def _plain_value(v: Val):
    """The value of a Python string or int known to the engine, else None."""
    if v.kind == "scalar" and isinstance(v.ref, tuple) and v.ref[0] == "str":
        return v.ref[1]
    return int_of(v)


def _module_method_receivers(func) -> frozenset:
    """The names ``func``'s code calls an nn.Module-only method on (torchapi
    MODULE_METHODS: ``net.parameters()``, ``net.eval()``)."""
    return frozenset(c.func.value.value for c in calls_in(func.body)
                     if isinstance(c.func, cst.Attribute) and isinstance(c.func.value, cst.Name)
                     and c.func.attr.value in T.MODULE_METHODS)


def _literal(node) -> Val | None:
    """The value of a literal constant: True/False/None known, numbers and strings
    plain scalars; None for anything else."""
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return Val("scalar", ref=node.value == "True")
    if isinstance(node, cst.Name) and node.value == "None":
        return NONE
    if isinstance(node, cst.Integer):
        return known_int(literal_int(node))
    if isinstance(node, cst.SimpleString):
        return Val("scalar", ref=("str", string_value(node)))  # (as the engine reads one)
    if isinstance(node, (cst.Float, cst.ConcatenatedString)):
        return SCALAR
    return None


def named_tuple(fields: tuple, pos, kw) -> Val:
    """A named tuple of ``fields`` made from a call's arguments, positional then by name
    (a field not given holds its default, not known here)."""
    given = dict(zip(fields, (v for v, _ in pos)))
    given.update((k, v) for k, (v, _) in kw.items() if k in fields)
    elts = tuple(given.get(f, UNKNOWN) for f in fields)
    return Val("tuple", frozenset().union(*(v.segs for v in elts)), any(v.leaf for v in elts),
               TupleType(fields), elts, src=merge_src(list(elts)))


# the key of ``kw`` for a ``**mapping`` argument whose keys are not known
STAR_KW = "**"
# the ``ref`` of the value standing for a ``*iterable`` argument whose length is not known
STAR_POS = "*"


class Calls:
    """Part of :class:`gradguard.analysis.interp.Interpreter` (a mixin over its state)."""

    def _args(self, call: cst.Call):
        pos, kw = [], {}
        for a in call.args:
            v = self.eval(a.value)
            if a.keyword is not None:
                kw[a.keyword.value] = (v, a.value)
            elif a.star == "**":
                items = dict_items(v)
                if items and set(items[0]) == dict_sure_keys(v):
                    # ``**nrargs`` of a dict literal of string keys: those keywords
                    kw.update((k, (e, a.value)) for k, e in zip(*items))
                else:
                    # keywords not known: any parameter not given otherwise may be one
                    kw[STAR_KW] = (Val("unknown", v.segs, v.leaf), a.value)
            elif a.star == "*" and v.kind == "tuple" and v.elts is not None:
                # ``*t`` of a tuple of known elements: those elements, in order
                pos.extend((e, a.value) for e in v.elts)
            elif a.star:
                # ``*xs``: several arguments, which ones not known; the elements of a list
                # of known shape kept (``nn.Sequential(*[Block() for _ in range(n)])``)
                pos.append((Val("unknown", v.segs, v.leaf, STAR_POS, elts=v.elts
                                if a.star == "*" and v.kind in ("container", "tuple")
                                else None), a.value))
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
                # ``range(x.size(0))``: ints, how many not known (from where and by how
                # much, when known: a loop's later passes are past the start)
                start = 0 if len(bounds) == 1 else bounds[0]
                step = 1 if len(bounds) < 3 else bounds[2]
                return Val("container", ref=("range", None, None, (start, step)))
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
            if info is not None and info.is_module:
                self.note_inputs(callee, pos)
            if info is not None:
                fwd = self._method(info, "__call__")
                if info.is_module and (fwd is None or self.code_fact(_calls_super_call, fwd)):
                    # (nn.Module.__call__ runs forward; a class of the user's that defines
                    # __call__ itself runs that instead, unless it hands over to it)
                    fwd = self._method(info, "forward")
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
            if key is None and func_node.value == "type" and len(pos) == 3 and not kw and \
                    dict_items(pos[2][0]) in ((), ((), ())):
                # ``type("State", (), {})``: a new class with nothing of its own, whose
                # objects are plain namespaces (attributes set on them later)
                return Val("ns", ref="types.SimpleNamespace")
            if key is None and func_node.value == "type" and len(pos) == 1 and not kw:
                info = self._class_of(pos[0][0])
                if info is not None:
                    # ``type(self)(...)``: an object of a class of the user's, of that class
                    return Val("class", ref=info)
            if key is None and func_node.value == "getattr" and len(pos) == 2 and not kw and \
                    isinstance(pos[1][0].ref, tuple) and pos[1][0].ref[0] == "str":
                # ``getattr(self, "block1")`` of a name of known value: that attribute
                return self.attribute(pos[0][0], pos[1][0].ref[1], call)
            if key is None and func_node.value == "setattr" and len(pos) == 3 and not kw and \
                    isinstance(pos[1][0].ref, tuple) and pos[1][0].ref[0] == "str" and \
                    pos[1][0].ref[1].isidentifier():
                # ``setattr(self, name, value)`` of a name of known value: that attribute
                # assigned (an EMA buffer updated by a helper given its name)
                target = cst.Attribute(value=pos[0][1], attr=cst.Name(pos[1][0].ref[1]))
                self._rebound_accumulation(call, pos[2][1], target, pos[2][0])
                self.store(target, pos[2][0])
                return NONE
            if key is None and func_node.value == "hasattr" and len(pos) == 2 and not kw and \
                    isinstance(pos[1][0].ref, tuple) and pos[1][0].ref[0] == "str" and \
                    self._has_attribute(pos[0][0], pos[1][0].ref[1]):
                # ``hasattr(m, "reset")`` of an object whose class (or itself) has it
                return Val("scalar", ref=True)
            if key is None and not kw:
                number = numeric_call(func_node.value, vals)
                if number is not None:
                    return number
            if key is None and func_node.value in T.CUT_BUILTINS:
                return SCALAR
            if func_node.value in ("list", "tuple", "sorted", "reversed", "set", "iter"):
                v = join_all(vals) if vals else NONE
                one = vals[0] if len(vals) == 1 and not kw else None
                # the same elements (reversed or sorted: the same shape of element)
                shape = one.ref if one is not None and one.kind == "container" and \
                    isinstance(one.ref, tuple) and one.ref[0] == "elem" else \
                    ("elem", SCALAR) if one is not None and one.kind == "container" and \
                    isinstance(one.ref, tuple) and one.ref[0] == "range" else None
                # (of a known empty list too: ``list(callbacks or [])`` adds nothing)
                elts = one.elts if one is not None and one.elts is not None and \
                    one.kind in ("container", "tuple", "module") else None
                if elts is not None and func_node.value in ("sorted", "set"):
                    elts = _sorted_or_set(func_node.value, elts)
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
                if all(x.elts is not None and x.kind in ("container", "tuple", "module")
                       for x in of):
                    # of iterables of known elements (an nn.ModuleList's children too):
                    # the known tuples, in order
                    rows = zip(*(x.elts for x in of))
                    items = tuple(Val("tuple", join_all(r).segs, any(e.leaf for e in r),
                                      elts=(SCALAR,) * (func_node.value == "enumerate") + r)
                                  for r in rows)
                    return Val("container", v.segs, v.leaf, elts=items, each=v.each)
                if func_node.value == "zip" and any(range_length(x) == 0 for x in of):
                    return Val("container", ref=("range", 0, None))  # (``zip(range(0), xs)``)
                parts = ([COUNT] if func_node.value == "enumerate" and len(pos) == 1 and
                         not kw else [SCALAR] if func_node.value == "enumerate" else []) + \
                    [self._iterated(x) for x in of]
                item = Val("tuple", v.segs, v.leaf, elts=tuple(parts))
                return Val("container", v.segs, v.leaf, elts=(item,), each=v.each)
            if func_node.value == "dict" and len(pos) == 1 and not kw and \
                    dict_of_pairs(pos[0][0]) is not None:
                return dict_of_pairs(pos[0][0])
            if func_node.value == "dict" and not pos and STAR_KW not in kw:
                # ``dict(loss_cls=a, loss_bbox=b)``: a dict of those keys (``dict()``: ``{}``)
                return dict_of(tuple(kw), tuple(v for v, _ in kw.values()))
            if func_node.value in ("zip", "enumerate", "map", "filter", "dict"):
                v = join_all(vals) if vals else NONE
                return Val("container", v.segs, v.leaf, "dict" if func_node.value == "dict"
                           else None, each=v.each)
            if func_node.value == "super":
                return self.frame.self_obj or UNKNOWN
            if func_node.value == "sum" and 1 <= len(pos) <= 2 and not kw:
                # ``sum(losses)``: ``start + e1 + e2 + ...``, an addition of the elements
                item = self._iterated(pos[0][0])
                if item.kind == "tensor" or item.grad:
                    return self.op(call, "sum", [item] + [v for v, _ in pos[1:]], saves=False)
                if item.kind == "scalar" and all(v.kind == "scalar" for v, _ in pos[1:]):
                    # of Python numbers (``sum(CAT_SIZES)``): a number, no tensor
                    nums = [number_of(e) for e in pos[0][0].elts or ()] + \
                        [number_of(v) for v, _ in pos[1:]]
                    known = known_number(sum(nums)) if nums and None not in nums else None
                    return known or SCALAR
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
            # (held here while the hook runs: ``output.requires_grad_(True)`` in it changes
            # the output tensor itself, as it changes every name that holds it)
            key = ("#hook-output", id(call))
            self.state.env[key] = Binding(out)
            res = self.apply(call, hook, [(module, call), (args, call), (out, call)], {}, None)
            held = self.state.env.pop(key, None)
            out = held.val if held is not None else out
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
        if segs and all(v.ref == MODEL_PART for v in vals if v.segs):
            # (of values that may be plain numbers: ``max(info_a.kl, info_b.kl)``)
            return Val("unknown", segs, leaf, MODEL_PART)
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
        if any(v.grad for v in vals):
            # a tensor with no graph handed over with one (or a leaf) may be written into
            # there (``strategy.reduce_patches(out, outputs)``): whether it has one is not
            # known any more
            written = {v.store for v in vals if v.kind == "tensor" and not v.grad and
                       v.src is not None and isinstance(v.store, tuple) and v.store[0] == "t"}
            if written:
                env = self.state.env
                for k, b in list(env.items()):
                    if b.val.store in written and b.val.src is not None and not b.val.grad:
                        env[k] = Binding(replace(b.val, src=None), b.stmt)
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

    def _forget_assigned(self, node, self_val: Val | None) -> None:
        """A method run not followed (a recursive call, one too deep): what it assigns on
        its object may have changed (``self.attribute()`` refreshing ``self.scores``)."""
        if self_val is None or not isinstance(self_val.ref, tuple) or \
                not isinstance(node, cst.FunctionDef):
            return
        env = self.state.env
        for attr in self.code_fact(self_assigned, node):
            key = ("@", self_val.ref, attr)
            if key in env:
                env[key] = Binding(UNKNOWN, env[key].stmt)

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
            self._forget_assigned(node, self_val)
            return UNKNOWN
        if self.depth >= MAX_DEPTH or foreign or recursive:
            self._forget_assigned(node, self_val)
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
            # (the arguments a fix may detach: tensors, not a list of them)
            self.call_sites[frame.id] = (self.frame.id, call, tuple(
                (n, v.segs) for v, n in list(pos) + list(kw.values())
                if v.segs and v.kind == "tensor"))
        params = node.params
        names = [p for p in list(params.posonly_params) + list(params.params)]
        args = list(pos)
        star = next((i for i, (v, _) in enumerate(args)
                     if v.kind == "unknown" and v.ref == STAR_POS), None)
        rest = None
        if star is not None:
            # ``f(*xs)`` of a list whose elements are known (each, or one standing for
            # all): those come first; how many more, not known (any of its values)
            sv, snode = args[star]
            rest = Val("unknown", sv.segs, sv.leaf)
            args = args[:star] + [(e, snode) for e in sv.elts or ()]
        if self_val is not None and not ref.static and names:
            first = names[0]
            names = names[1:]
            self.state.env[(frame.id, first.name.value)] = Binding(self_val, None)
        self.frames.append(frame)
        self.depth += 1
        saved_ng = self.no_grad
        entry: dict = {}  # parameter -> the argument's value
        changed: list = []  # (argument expression, value) of containers changed in place
        if ref.no_grad:
            self.no_grad += 1
            self.no_grad_sites.append(node)
        elif self.no_grad and self._decorated_enable_grad(node):
            self.no_grad = 0  # ``@torch.enable_grad()``: grad on inside, whatever the caller's
        try:
            for i, p in enumerate(names):
                if unknown_params:
                    v = UNKNOWN
                elif i < len(args):
                    v = args[i][0]
                    frame.arg_nodes[p.name.value] = args[i][1]
                    entry[p.name.value] = v
                elif p.name.value in kw:
                    v = kw[p.name.value][0]
                    frame.arg_nodes[p.name.value] = kw[p.name.value][1]
                    entry[p.name.value] = v
                elif rest is not None:
                    v = rest
                elif STAR_KW in kw:
                    v = UNKNOWN
                elif p.default is not None:
                    v = self.eval(p.default)
                else:
                    v = UNKNOWN
                self.state.env[(frame.id, p.name.value)] = Binding(v, None)
            for p in list(params.kwonly_params):
                v = kw[p.name.value][0] if p.name.value in kw else \
                    self.eval(p.default) if p.default is not None and STAR_KW not in kw \
                    else UNKNOWN
                self.state.env[(frame.id, p.name.value)] = Binding(v, None)
            named = {p.name.value for p in names} | \
                {p.name.value for p in params.kwonly_params}
            for star in (params.star_arg, params.star_kwarg):
                if not isinstance(star, cst.Param):
                    continue
                if star is params.star_kwarg and STAR_KW not in kw and not unknown_params:
                    # ``**kwargs``: a dict of the keywords no parameter took
                    extra = [(k, v) for k, (v, _) in kw.items() if k not in named]
                    v = dict_of(tuple(k for k, _ in extra), tuple(v for _, v in extra))
                elif star is params.star_arg and rest is None and not unknown_params:
                    # ``*args``: a tuple of the positional arguments past the parameters
                    more = tuple(v for v, _ in args[len(names):])
                    v = Val("tuple", frozenset().union(*(e.segs for e in more)),
                            any(e.leaf for e in more), elts=more, src=merge_src(list(more)))
                else:
                    v = Val("container", frozenset().union(*(v.segs for v in vals))
                            if vals else EMPTY)
                self.state.env[(frame.id, star.name.value)] = Binding(v, None)
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
                changed = self._changed_in_place(frame, entry)
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
        for arg, v in changed:
            # (the caller's variable names the same dict or list: ``state[LOSS] = ...``
            # in a helper given ``state``)
            key = self.key_of(arg)
            if key in self.state.env and self.state.env[key].val.kind == "container":
                self.state.env[key] = Binding(v, self.state.env[key].stmt)
        self.completed.add(id(node))
        if frame.yields is not None:
            result = self._generated(frame.yields, start, lazy=True)
        return result

    def _changed_in_place(self, frame, entry: dict) -> list:
        """The containers a call changed through its parameters (``d[k] = v``,
        ``d.update(...)``; the parameter never rebound): ``(argument expression, value
        at the end)`` for each given as a name or attribute, so that the caller's binding,
        the same object, holds them too."""
        out = []
        for name, before in entry.items():
            b = self.state.env.get((frame.id, name))
            arg = frame.arg_nodes.get(name)
            if b is not None and b.stmt is None and b.val is not before and \
                    before.kind == b.val.kind == "container" and \
                    isinstance(arg, (cst.Name, cst.Attribute)):
                out.append((arg, b.val))
        return out

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
        # (every element is a value of the element expression: its history is theirs; a
        # generator of tuples, ``yield img, target``, gives tuples of those parts)
        return Val("container", v.segs, v.leaf,
                   ("elem", v) if v.kind == "tuple" and v.elts else None, each=each, src=v.src)

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
        self.created.setdefault(obj.ref, next(self._ids))
        init = self._method(info, "__init__")
        if init is None and info.fields is not None and "NamedTuple" in info.bases:
            # ``class Out(NamedTuple): y: Tensor; h: Tensor``: a tuple
            return named_tuple(info.fields, pos, kw)
        if init is not None:
            self.call_ref(call, self.method_ref(init, info), pos, kw, obj)
            return self.with_children(obj)
        if info.fields is not None:
            # a @dataclass's generated __init__: fields from the arguments, in order
            # (the others keep their class-level defaults)
            given = dict(zip(info.fields, (v for v, _ in pos)))
            given.update((k, v) for k, (v, _) in kw.items() if k in info.fields)
            for name, v in given.items():
                self.state.env[("@", obj.ref, name)] = Binding(v, self.frame.stmt)
        elif obj.kind == "object" and any(
                (b not in self.classes or self.classes[b] is info) and b != "object"
                for b in info.bases):
            # ``class Normal(torch.distributions.Normal): ...`` built with the base's
            # __init__, not known: it keeps its arguments somewhere, and what a method it
            # inherits returns (``rsample()``) may hold their graphs
            held = [v for v, _ in list(pos) + list(kw.values())]
            segs = frozenset().union(*(v.segs for v in held)) if held else EMPTY
            if segs:
                return replace(obj, segs=segs)
        return obj

    def _class_attr(self, info: ClassInfo, name: str) -> Val | None:
        """A class-level attribute (of ``info`` or a base) read through an instance,
        when its value is a literal constant (a config default: ``learned_freq: bool =
        True``); else None."""
        node = next((c.attrs[name] for c in self._mro(info) if name in c.attrs), None)
        return _literal(node) if node is not None else None

    def _instantiate(self, info: ClassInfo, func, run_init: bool) -> Val:
        obj = self._instance(info, ("self", info.key))
        self.created.setdefault(obj.ref, next(self._ids))
        init = self._method(info, "__init__")
        if run_init and init is not None:
            saved = self.state.freed
            self.call_ref(None, self.method_ref(init, info), [], {}, obj, unknown_params=True)
            self.state.freed = saved
            # the attributes __init__ set are the object's starting point, without graphs
            for k, b in list(self.state.env.items()):
                if k[0] == "@" and k[1] == obj.ref:
                    self.state.env[k] = Binding(self._strip(b.val), b.stmt)
        return self.with_children(obj)

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

    def _has_attribute(self, obj: Val, name: str) -> bool:
        """Whether ``obj``, an object of a class of the user's, surely has attribute
        ``name``: a method or class attribute on its class's MRO, or one set on it."""
        info = self._class_of(obj)
        if info is None:
            return False
        if ("@", obj.ref, name) in self.state.env or self._method(info, name) is not None:
            return True
        return any(name in c.attrs for c in self._mro(info))

    def _method(self, info: ClassInfo, name: str):
        """The ``def`` of method ``name`` on ``info``'s MRO, or None. A class attribute
        assigned from outside the class body (``blocks.NormLayer.__init__ = patched``)
        comes first on its class: a module-level function of the user's is that method
        now; anything else is a method not known."""
        env = self.state.env
        for c in self._mro(info):
            slot = env.get(("@", ("class", c.key), name))
            if slot is not None:
                ref = slot.val.ref
                return ref.node if slot.val.kind == "func" and isinstance(ref, FuncRef) and \
                    ref.frame == ref.gid and ref.cls is None and \
                    isinstance(ref.node, cst.FunctionDef) and \
                    self.method_gids.get(id(ref.node), "G") == ref.gid else None
            if name in c.methods:
                return c.methods[name]
        return None

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
        bases, short, container, lightning, torch_module = [], [], None, False, False
        for a in node.bases:
            if a.keyword is not None:
                continue
            written = dotted(a.value) or ""
            short.append(written.rsplit(".", 1)[-1])
            head, _, rest = written.partition(".")
            imported = self._global(head)  # (``nn`` of ``nn.Sequential``: torch.nn)
            path = f"{imported.ref}.{rest}".rstrip(".") if imported is not None and \
                imported.kind == "ns" and isinstance(imported.ref, str) else ""
            if path.startswith("torch.nn.") and short[-1] in T.MODULE_CONTAINERS:
                container = short[-1]
            # (a subclass of any torch.nn module class, ``class Grow(nn.Linear)``, is one)
            torch_module = torch_module or path.startswith("torch.nn.") and \
                short[-1] in T.NN_CLASSES
            val = self._global(written)
            lightning = lightning or path in T.LIGHTNING_MODULES or val is not None and \
                val.kind == "ns" and val.ref in T.LIGHTNING_MODULES
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
                    elif isinstance(small, cst.Assign):
                        # ``lr = 0.1``, ``a = b = 0``, ``lr, epochs = 0.1, 3``
                        for t in small.targets:
                            attrs.update(_unpacked(t.target, small.value))
        is_dataclass = any((dotted(d.decorator.func if isinstance(d.decorator, cst.Call)
                                   else d.decorator) or "").endswith("dataclass")
                           for d in node.decorators)
        known = [self.classes[b] for b in bases if b in self.classes]
        is_module = torch_module or any(b in T.MODULE_BASES for b in short) or \
            any(c.is_module for c in known)
        is_opt = any(b == "Optimizer" for b in short) or any(c.is_optimizer for c in known)
        container = container or next((c.container for c in known if c.container), None)
        info = ClassInfo(node, methods, bases, is_module, is_opt, key, self.gid, attrs,
                         tuple(fields) if is_dataclass or "NamedTuple" in short else None,
                         container, lightning or any(c.lightning for c in known))
        self.classes[key] = info
        return info

    def _global(self, name: str) -> Val | None:
        """What the global ``name`` of this interpreter's module is bound to (a class
        statement's bases are read there, also where no frame runs), else None."""
        at = (self.gid, name)
        return self.read(at) if at in self.state.env else \
            self._forced(self.global_env[at].val) if at in self.global_env else None

    def method_ref(self, method: cst.FunctionDef, info: ClassInfo, static: bool = False) -> FuncRef:
        """A method found on ``info`` (or a base of it) as a :class:`FuncRef`, to run in
        the global frame of the module that defines it."""
        gid = self.method_gids.get(id(method), "G")
        return FuncRef(method, gid, info, no_grad=bool(method.decorators) and
                       self._decorated_no_grad(method), static=static, gid=gid)

    @staticmethod
    def _is_static(func) -> bool:
        """Whether method ``func`` takes no instance as its first parameter (a
        ``@staticmethod`` or ``@classmethod``)."""
        return any(dotted(d.decorator) in ("staticmethod", "classmethod")
                   for d in getattr(func, "decorators", ()))

    def bound_to(self, func, info: ClassInfo, obj: Val | None) -> tuple:
        """``(static, first argument)`` of method ``func`` of class ``info`` called on
        ``obj`` (an instance; None: called on the class): a ``@classmethod`` gets the
        class, a ``@staticmethod`` (or a plain function read off the class) nothing."""
        if any(dotted(d.decorator) == "classmethod" for d in func.decorators):
            return False, Val("class", ref=info)
        if self._is_static(func) or obj is None:
            return True, None
        return False, obj


def _calls_super_call(func: cst.FunctionDef) -> bool:
    """Whether ``func`` calls ``super().__call__`` (nn.Module's, which runs ``forward``)."""
    return any(isinstance(n, cst.Attribute) and n.attr.value == "__call__" and
               isinstance(n.value, cst.Call) and isinstance(n.value.func, cst.Name) and
               n.value.func.value == "super" for n in walk_scope(func))


def _unpacked(target, value) -> dict:
    """The names an assignment ``target = value`` binds, each to its expression: a name
    to the value, a tuple of names to the elements of a tuple of the same length."""
    if isinstance(target, cst.Name):
        return {target.value: value}
    if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) \
            and len(target.elements) == len(value.elements) and not any(
                isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)):
        out = {}
        for t, v in zip(target.elements, value.elements):
            out.update(_unpacked(t.value, v.value))
        return out
    return {}
