"""nn modules as composed objects: a module call (a torch.nn module by the tables, a
module of the user's through its ``forward``), the children of ``nn.Sequential`` /
``nn.ModuleList`` / ``nn.ModuleDict`` and of subclasses of them, ``copy.deepcopy`` of a
module, ``super()`` methods, submodules transitively, ``isinstance`` of modules,
``modules()`` / ``children()``, and ``requires_grad_(False)`` freezing a module."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from gradguard.analysis import torchapi as T
from gradguard.analysis.frames import ClassInfo, dotted, string_value
from gradguard.analysis.values import (EMPTY, MODEL_OUTPUT, NONE, UNKNOWN, Binding, Cut, Val,
                                       dict_items, list_elements, merge_src, module_refs)

# the attribute under which an instance of a subclass of an nn container keeps its
# children (not a Python name: no program's attribute can collide with it)
CHILDREN = "<children>"


class ModuleSemantics:
    """Part of :class:`gradguard.analysis.interp.Interpreter` (a mixin over its state)."""

    def note_inputs(self, module: Val, pos) -> None:
        """Record the graphs a module built in the analysed code is run on (GG403: a
        module run on what a trained module computed is part of the model)."""
        ref = module.ref
        if isinstance(ref, tuple) and ref in self.created and not self.no_grad:
            for v, _ in pos:
                if v.segs:
                    self.module_inputs[ref] = self.module_inputs.get(ref, EMPTY) | v.segs

    def module_call(self, call, callee: Val, pos) -> Val:
        """Calling an nn.Module (or a model-like callable): its forward builds a graph
        from its parameters and saves its inputs and parameters; recurrent modules return
        ``(output, hidden)``; ``ReLU(inplace=True)`` and the like change their input."""
        self._note_stale(pos)
        ref = callee.ref if isinstance(callee.ref, tuple) else None
        name = ref[1] if ref is not None and ref[0] == "nn" else None
        self.note_inputs(callee, pos)
        if ref in self.self_changing:
            # ``Embedding(max_norm=...)`` renormalises the rows it looks up in place
            # (whatever the grad mode): a node that saved its weight fails in backward
            self.self_changes.add(id(call))
            self.bump(Val("tensor", store=("param", ref)), call)
        info = self._class_of(callee) if name is None else None
        if (name == "Sequential" or info is not None and info.container == "Sequential") \
                and callee.elts and len(pos) == 1:
            # a Sequential runs its children in order, each on the previous one's result
            v, node = pos[0]
            self.container_calls.add(id(call))
            for child in callee.elts:
                v = self.apply(call, child, [(v, node)], {}, call.func)
                node = call
            return v
        label = dotted(call.func) or "model"
        flag, where = self.inplace_flags.get(ref, (None, None)) if name is not None \
            else (None, None)
        if name is not None and (ref[3] if flag is None else flag) and pos:
            # an in-place activation: same storage, one version newer
            v = pos[0][0]
            if v.store is not None:
                ctor = where if where is not None else self.inplace_ctors.get(ref)
                self.inplace_modules[id(call)] = ctor
                # (a Sequential's call runs several: which one changed this tensor)
                self.inplace_modules[(id(call), v.store)] = ctor
                res = self.in_place(call, v, [])
                if name in T.INPLACE_SAVES_OUTPUT and res.segs and not self.no_grad:
                    # relu_ and friends backward from their result: the changed tensor
                    saved = ((v.store, self.state.versions.get(v.store, 0)),)
                    res = Val("tensor", self.new_seg(call, label, res.segs, True, (), saved),
                              res.leaf, store=v.store)
                return res
        saves = T.MODULE_SAVES.get(name) if name is not None else "input"
        if saves == "alias" and len(pos) == 1:
            # Identity returns its input, Flatten a view of it: no node that saves
            v = pos[0][0]
            return v if v.kind == "tensor" else Val("tensor", v.segs, v.leaf, store=v.store,
                                                    src=v.src)
        if self.no_grad:
            if ref is not None:
                site = self.no_grad_sites[-1] if self.no_grad_sites else None
                if isinstance(site, cst.With):
                    # the block that turned grad mode off (in a caller, maybe)
                    self.cut_log.append((Cut("no_grad", site, True, frozenset({ref})),
                                         self.stamp()))
                elif id(site) in self.checkpoint_calls:
                    # a reentrant checkpoint none of whose inputs requires grad
                    self.cut_log.append((Cut("checkpoint", site, True, frozenset({ref})),
                                         self.stamp()))
                self.cut_log.append((Cut("no_grad_call", call, True, frozenset({ref})),
                                     self.stamp()))
            # a torch.nn module's forward runs in the grad mode it is given; a model not
            # known may turn grad mode on inside (torch.enable_grad() in its forward)
            known = name is not None
            return Val("tensor", store=self.fresh_store(),
                       src=self.no_grad_src() if known else None)
        if ref is not None and ref in self.frozen and not any(v.grad for v, _ in pos):
            # (a frozen module on inputs that need no grad: no graph at all)
            given = merge_src([v for v, _ in pos])
            return Val("tensor", store=self.fresh_store(),
                       src=None if given is None or ref in self.maybe_frozen
                       else given + (Cut("frozen", call),))
        inputs = tuple((node, v.segs) for v, node in pos
                       if isinstance(node, (cst.Name, cst.Attribute, cst.Subscript)) and
                       v.kind == "tensor" and v.segs)
        parents = frozenset().union(*(v.segs for v, _ in pos)) if pos else EMPTY
        # the module's own parameters are not part of src: a module call has a graph
        src = merge_src([v for v, _ in pos]) if ref is not None else None
        if name is not None and name.endswith("Loss") and not any(v.grad for v, _ in pos):
            return Val("tensor", store=self.fresh_store(), src=src)
        store = self.fresh_store()
        if saves == "output":
            if not any(v.grad for v, _ in pos):
                return Val("tensor", store=store, src=src)
            saved = ((store, 0),)
        elif saves in ("mask", "none"):
            if not any(v.grad for v, _ in pos):
                return Val("tensor", store=store, src=src)
            saved = ()
        else:
            # "input" saves the inputs; a torch.nn module the tables do not describe is
            # only known to hold its parameters
            saved = self.saved_of([v for v, _ in pos]) if saves == "input" else ()
            keeps = T.PARAMS_SAVED.get(name, "always")
            if ref is not None and name not in T.PARAMLESS_MODULES and (keeps == "always" or (
                    keeps == "grad_input" and any(v.grad for v, _ in pos))):
                saved += ((("param", ref), self.state.versions.get(("param", ref), 0)),)
            if self.autocast and name in T.AUTOCAST_LOWER_MODULES:
                saved = ()  # (casted copies of its input and parameters)
        segs = self.new_seg(call, label, parents, saves != "none", inputs, saved,
                            frozenset(v.store for v, _ in pos if v.leaf and v.store is not None),
                            ins=[v for v, _ in pos],
                            module=False if name in T.PARAMLESS_MODULES else ref)
        out = Val("tensor", segs, store=store, src=src,
                  ref=MODEL_OUTPUT if name is None and info is None else None)
        rec = T.RECURRENT_MODULES.get(name) if name else None
        if rec == "tensor":
            return Val("tuple", segs, elts=(out, out))
        if rec == "tuple":
            return Val("tuple", segs, elts=(out, Val("tuple", segs, elts=(out, out))))
        return out

    def _module_children(self, call: cst.Call, name: str, pos) -> tuple | None:
        """The submodules of ``nn.Sequential(a, b, *rest)`` / ``nn.ModuleList([a, b])``
        in order, when every one is known to be a module; else None."""
        if name not in T.MODULE_CONTAINERS:
            return None
        if not call.args:
            return ()  # filled later (append, add_module)
        if name == "ModuleList":
            if len(call.args) != 1 or call.args[0].star or call.args[0].keyword:
                return None
            children = list_elements(pos[0][0])
        else:
            children = []
            for arg, (v, _) in zip(call.args, pos):
                if arg.keyword is not None:
                    return None
                if arg.star == "*":
                    if isinstance(arg.value, (cst.Name, cst.Attribute)):
                        v = self.eval(arg.value)
                    if list_elements(v) is None:
                        return None
                    children.extend(list_elements(v))
                else:
                    children.append(v)
        # (a list filled in a loop, ``layers += [ActNorm(d), Coupling(d)]``: one element,
        # one of the modules appended, stands for them all)
        if children is None or any(c.kind != "module" or not module_refs(c) for c in children):
            return None
        return tuple(children)  # (``nn.ModuleList([])``: filled later, as with no argument)

    def _container_init(self, call: cst.Call, pos) -> None:
        """``super().__init__(*layers)`` in a subclass of nn.Sequential / nn.ModuleList:
        the object holds those children in order, as the container does
        (torch/nn/modules/container.py): its attributes "0", "1", ..., its submodules,
        and (:meth:`with_children`) the elements its call runs and a loop visits."""
        obj = self.frame.self_obj
        info = self._class_of(obj) if obj is not None else None
        if info is None or info.container is None:
            return
        children = self._module_children(call, info.container, pos)
        if not children:
            return
        self.submodules.setdefault(obj.ref, set()).update(
            r for c in children for r in module_refs(c))
        for i, child in enumerate(children):
            self.state.env[("@", obj.ref, str(i))] = Binding(child, self.frame.stmt)
        self.state.env[("@", obj.ref, CHILDREN)] = Binding(Val("container", elts=children),
                                                            self.frame.stmt)

    def with_children(self, obj: Val) -> Val:
        """An instance of a subclass of an nn container, with the children its
        ``__init__`` gave it as elements (see :meth:`_container_init`)."""
        held = self.state.env.get(("@", obj.ref, CHILDREN))
        return replace(obj, elts=held.val.elts) if held is not None else obj

    def _grow_container(self, node, recv: Val, attr: str, pos) -> Val:
        """``layers.append(m)`` / ``extend([a, b])`` / ``add_module("conv", m)`` on an
        nn.ModuleList or nn.Sequential whose children are known: they run (are indexed)
        in that order after them (torch/nn/modules/container.py); a child not known to be
        a module makes them not known."""
        if attr == "add_module":
            added = [pos[1][0]] if len(pos) == 2 else None
        elif attr == "extend":
            added = list_elements(pos[0][0]) if len(pos) == 1 else None
        else:
            added = [pos[0][0]] if len(pos) == 1 else None
        known = added is not None and all(c.kind == "module" and module_refs(c) for c in added)
        grown = replace(recv, elts=recv.elts + tuple(added) if known else None)
        if known:
            self.submodules.setdefault(recv.ref, set()).update(
                r for c in added for r in module_refs(c))
            if attr == "add_module" and isinstance(pos[0][1], cst.SimpleString):
                self.state.env[("@", recv.ref, string_value(pos[0][1]))] = Binding(
                    added[0], self.frame.stmt)
        else:
            self.escape([v for v, _ in pos])
        key = self.key_of(node)
        if key is not None and key in self.state.env:
            self.state.env[key] = Binding(grown, self.state.env[key].stmt)
        return NONE

    def _copied_module(self, call, module: Val, memo: dict) -> Val:
        """``copy.deepcopy(net)``: a new module of the same class, its attributes copied,
        its submodules copied in turn and its parameters new leaves of their own (the
        copy trains apart from ``net``: a target network, a MAML learner's clone)."""
        ref = module.ref
        if ref in memo:
            return Val("module", ref=memo[ref])
        tag = (id(call),) + self.call_string()
        if ref[0] == "nn":
            new = ("nn", ref[1], tag + (ref[2],), ref[3], ref[4])
        elif ref[0] == "obj":
            new = ("obj", tag + ref[1], ref[2])
        else:  # ("self", class key): the object a method runs on
            new = ("obj", tag, ref[1])
        memo[ref] = new
        self.created.setdefault(new, next(self._ids))
        self.copies.add(new)
        if ref in self.inplace_ctors:
            self.inplace_ctors[new] = self.inplace_ctors[ref]
        if ref in self.frozen:
            self.frozen.add(new)

        def copied(v: Val) -> Val:
            if v.kind == "module" and copyable(v.ref):
                return self._copied_module(call, v, memo)
            if v.kind == "module":
                return Val("module")  # (a module not known: its copy is not known either)
            if v.kind == "tensor" and v.leaf:
                # (a parameter of the copied module: one of the copy's)
                return Val("tensor", leaf=True, store=("param", new) if v.store == ("param", ref)
                           else ("p", next(self._ids)))
            if v.segs:
                return UNKNOWN  # (deepcopy of a tensor with a graph raises)
            return v
        for key, b in list(self.state.env.items()):
            if key[0] == "@" and key[1] == ref:
                self.state.env[("@", new, key[2])] = Binding(copied(b.val), b.stmt)
        kids = self.submodules.get(ref)
        if kids:  # (those copied above are in ``memo`` already)
            self.submodules[new] = {self._copied_module(call, Val("module", ref=k), memo).ref
                                    for k in kids if copyable(k)}
        elts = tuple(copied(e) for e in module.elts) if module.elts is not None else None
        return Val("module", ref=new, elts=elts)

    def _super_method(self, func: cst.Attribute):
        """For ``super().name`` (no arguments) in a method of a known class: the
        ``(method, class)`` Python runs, the first ``name`` after the class that defines
        the running method in the MRO of ``self``'s class; None when not known (a base
        from a library, ``nn.Module.__init__``)."""
        if not is_super(func.value):
            return None
        obj = self.frame.self_obj
        info = self._class_of(obj) if obj is not None else None
        if info is None:
            return None
        mro = list(self._mro(info))
        here = next((i for i, c in enumerate(mro)
                     if any(m is self.frame.func for m in c.methods.values())), None)
        if here is None:
            return None
        for c in mro[here + 1:]:
            m = c.methods.get(func.attr.value)
            if m is not None:
                return m, c
        return None

    def _descendants(self, refs) -> set:
        """Modules and their submodules (attributes that hold modules), transitively."""
        out, todo = set(), list(refs)
        while todo:
            r = todo.pop()
            if r not in out:
                out.add(r)
                todo.extend(self.submodules.get(r, ()))
        return out

    @staticmethod
    def one_of_modules(options: tuple) -> tuple:
        """The modules a call of one of ``options`` runs, one at a time, on the output of
        an earlier call of one of them (``x = layers[k](x)`` in a loop): when only some
        are in-place activations (a list of convolutions, pools and ``ReLU(inplace=True)``),
        those run out of place here: whether the one that changes its input follows one
        that saved its output is not known (quiet)."""
        inplace = [isinstance(r, tuple) and r[0] == "nn" and len(r) > 3 and bool(r[3])
                   for r in options]
        if not any(inplace) or all(inplace):
            return options
        return tuple(r[:3] + (False,) + r[4:] if flag else r for r, flag in zip(options, inplace))

    def nn_isinstance(self, obj: Val, types: Val) -> Val | None:
        """``isinstance(m, nn.X)`` (or a tuple of torch.nn classes) of a torch.nn module
        ``m`` (per ``T.NN_CLASSES``), or of a module of a class of this program that derives
        from ``nn.Module`` only through classes of this program: True or False; None when
        either is not that."""
        named = types.elts if types.kind == "tuple" and types.elts else (types,)
        names = [t.ref[len("torch.nn."):] for t in named if t.kind == "ns" and
                 isinstance(t.ref, str) and t.ref.startswith("torch.nn.")]
        if obj.kind != "module" or not isinstance(obj.ref, tuple) or \
                len(names) != len(named) or \
                not all(n in T.NN_CLASSES or n == "Module" for n in names):
            return None
        if obj.ref[:1] == ("nn",):
            classes = T.NN_CLASSES.get(obj.ref[1])
        else:
            classes = self._user_module_classes(self._class_of(obj))
        return None if classes is None else \
            Val("scalar", ref=any(n in classes for n in names))

    def _user_module_classes(self, info: ClassInfo | None) -> frozenset | None:
        """``{"Module"}`` when ``info`` is a module class whose bases, transitively, are
        classes of this program and ``nn.Module`` as written; else None."""
        if info is None or not info.is_module:
            return None
        seen, todo = set(), [info]
        while todo:
            c = todo.pop()
            if c.key in seen:
                continue
            seen.add(c.key)
            for b in c.bases:
                if b in self.classes:
                    todo.append(self.classes[b])
                elif b not in ("nn.Module", "torch.nn.Module", "Module"):
                    return None
        return frozenset({"Module"})

    def _module_members(self, ref: tuple) -> set:
        """The modules ``net.modules()`` (``net`` and its submodules, transitively) or
        ``net.children()`` (its direct submodules) yields, for ``("modules"|"children",
        net_ref)`` (and ``named_modules`` / ``named_children``, with their names)."""
        kind, root = ref
        if kind in ("children", "named_children"):
            return set(self.submodules.get(root, ()))
        return self._descendants([root])

    def set_frozen(self, ref, flag: bool | None, node) -> None:
        """``requires_grad_(False)`` on a module, or on each of its parameters (also
        ``p.requires_grad = False``; ``node``: that call or statement): the module and its
        submodules no longer make a graph from their parameters, and their parameter
        attributes (``self.pos = nn.Parameter(...)``) are tensors known to have none;
        ``requires_grad_()`` / ``(True)`` undoes it, and so does a flag that is not a
        literal (None: ``p.requires_grad_(saved)`` restoring a state kept in a list, after
        which they may require grad again; or ``p.requires_grad_(n.startswith("head"))``
        over ``named_parameters()``: some of them may stay frozen)."""
        some = flag is None
        flag = flag is not False
        refs = self._descendants({ref})
        if flag:
            for r in refs & self.frozen:
                self.unfrozen_at.setdefault(r, node)
            self.frozen -= refs
        else:
            self.frozen |= refs
        if self.undecided or some:
            self.maybe_frozen |= refs
        for k, b in list(self.state.env.items()):
            if k[0] != "@" or k[1] not in refs or b.val.kind != "tensor" or b.val.segs:
                continue
            if not flag and b.val.leaf:
                self.state.env[k] = Binding(
                    replace(b.val, leaf=False, src=None if self.undecided else
                            (Cut("frozen_param", node),)), b.stmt)
            elif flag and b.val.src and b.val.src[-1].kind == "frozen_param":
                self.state.env[k] = Binding(replace(b.val, leaf=True, src=None), b.stmt)


def module_dict_items(pos) -> list | None:
    """The ``(key, module)`` pairs of ``nn.ModuleDict({"a": m, ...})``, read off its one
    argument as evaluated (a dict literal of string keys), when every value is a known
    module; else None."""
    items = dict_items(pos[0][0]) if len(pos) == 1 else None
    if not items or not all(v.kind == "module" and isinstance(v.ref, tuple) for v in items[1]):
        return None
    return list(zip(*items))


def ref_kind(ref) -> str | None:
    """The kind of a module ref: "nn", "obj", "self", "ext"...; None for no known one."""
    return ref[0] if isinstance(ref, tuple) and ref else None


def copyable(ref) -> bool:
    """Whether ``copy.deepcopy`` of a module with this ref is modelled: a torch.nn module
    or an object of a class of the user's (not one known only from its methods)."""
    return ref_kind(ref) in ("nn", "obj")


def is_super(expr) -> bool:
    """Whether ``expr`` is ``super()``, or ``super(Cls, self)`` as Python 2 code spells it
    in a method of ``Cls`` (taken for the same)."""
    if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and
            expr.func.value == "super"):
        return False
    return not expr.args or (len(expr.args) == 2 and isinstance(expr.args[1].value, cst.Name)
                             and expr.args[1].value.value == "self")
