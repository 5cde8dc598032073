"""PyTorch semantics: calls of the torch API (factories, ops, ``torch.nn`` modules,
grad modes) and tensor methods, as the tables of :mod:`gradguard.analysis.torchapi`
describe them (what optimizers do: :mod:`gradguard.analysis.optimizers`; nn modules as
objects: :mod:`gradguard.analysis.module_semantics`)."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst
import libcst.matchers as match

from gradguard.analysis import torchapi as T
from gradguard.analysis import torchdb
from gradguard.analysis.calls import STAR_KW
from gradguard.analysis.events import DiscardedDetach
from gradguard.analysis.frames import (ClassInfo, FuncRef, Partial, Trained,
                                       TupleType, children_of, tuple_fields,
                                       arg_truth, dotted, is_global, literal_truth, self_assigned,
                                       string_value)
from gradguard.analysis.known_numbers import NUMBERS, numeric_call
from gradguard.analysis.module_semantics import copyable, is_super, module_dict_items, ref_kind
from gradguard.analysis.python_semantics import MAX_ELTS
from gradguard.analysis.values import (CALLABLE_KINDS, EMPTY, MODEL_OUTPUT, NONE, SCALAR, UNKNOWN, Alts, Binding, Cut, Val,
                                       dict_items, dict_of, dict_of_pairs, dict_sure_keys, element_shape, join, join_all,
                                       merge_src, module_refs, param_owners, scalars_only,
                                       flag_modules)


class TorchSemantics:
    """Part of :class:`gradguard.analysis.interp.Interpreter` (a mixin over its state)."""

    def _expr_statement(self, small: cst.Expr, line) -> None:
        expr = small.value
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and \
                expr.func.attr.value == "detach" and not expr.args:
            recv = self.eval(expr.func.value)
            loop_target = recv.alias is not None or self._is_loop_target(expr.func.value)
            # an object of this file may define its own detach(); an unknown plain name
            # may be one of those objects, or, holding no graph, any object with a
            # detach() (a ``weakref.finalize``, an ``io.TextIOWrapper``)
            own = any("detach" in c.methods for c in self.classes.values())
            plain = isinstance(expr.func.value, cst.Name)
            tensor_like = recv.kind == "tensor" or recv.kind == "unknown" and (
                not plain or bool(recv.segs) and not own)
            if tensor_like:
                if id(line) not in self._seen_detach:
                    self._seen_detach.add(id(line))
                    self.mark()
                    self.detaches.append(DiscardedDetach(
                        line, expr, expr.func.value, loop_target, self.frame.func))
                return
        self.eval(expr)
        path = self._path_of(expr.func) if isinstance(expr, cst.Call) else None
        if path is not None and path.startswith("torch.") and \
                path.endswith(".set_grad_enabled"):
            self._set_grad_mode(expr)

    def _set_grad_mode(self, call: cst.Call) -> None:
        """A bare ``torch.set_grad_enabled(flag)`` sets the thread's grad mode until the
        next one, across calls and returns (a ``with`` block or a ``no_grad`` function
        around it restores its own on the way out). A flag not known leaves it as is."""
        kind = self._grad_context(call)
        if kind == "on":
            self.no_grad = 0
        elif kind == "off":
            self.no_grad = self.no_grad or 1
            if self.no_grad_sites:
                self.no_grad_sites[-1] = call
            else:
                self.no_grad_sites.append(call)

    def _is_loop_target(self, node) -> bool:
        if not isinstance(node, cst.Name):
            return False
        key = self.lookup_key(node.value)
        b = self.state.env.get(key) if key else None
        return b is not None and isinstance(b.stmt, (cst.For, cst.CompFor))

    def _grad_context(self, expr) -> str | None:
        """"off" for no_grad()/inference_mode()/set_grad_enabled(False), "on" for
        enable_grad()/set_grad_enabled(True), else None. Also of ``ctx`` bound to one of
        them in this frame (``ctx = torch.inference_mode() if fast else torch.no_grad()``,
        then ``with ctx:``), and of a conditional expression of two of the same kind."""
        if isinstance(expr, cst.IfExp):
            kinds = {self._grad_context(e) for e in (expr.body, expr.orelse)}
            return kinds.pop() if len(kinds) == 1 else None
        if isinstance(expr, cst.Name):
            key = self.lookup_key(expr.value)
            b = self.state.env.get(key) if key is not None else None
            st = b.stmt if b is not None else None
            if isinstance(st, cst.SimpleStatementLine) and len(st.body) == 1 and \
                    isinstance(st.body[0], cst.Assign) and len(st.body[0].targets) == 1 and \
                    st.body[0].targets[0].target.deep_equals(expr) and \
                    isinstance(st.body[0].value, (cst.Call, cst.IfExp)):
                return self._grad_context(st.body[0].value)
            return None
        if not isinstance(expr, cst.Call):
            return None
        path = self._path_of(expr.func)
        if path is None:
            return None
        name = path.rsplit(".", 1)[-1]
        if name in T.NO_GRAD_CONTEXTS:
            if name == "inference_mode" and expr.args and literal_truth(expr.args[0].value) is False:
                return None
            return "off"
        if name == "enable_grad":
            return "on"
        if name == "set_grad_enabled" and expr.args:
            arg = expr.args[0].value
            flag = literal_truth(arg)
            if flag is None and _only_reads(arg):
                # ``set_grad_enabled(phase == "train")`` with ``phase`` of known value
                flag = self.truth(self.eval(arg))
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

    def _checkpointed(self, call, pos, kw) -> Val:
        """``checkpoint(fn, *args)``: ``fn(*args)``. With ``use_reentrant=True`` (the
        default when not given, torch/utils/checkpoint.py) its output has a graph only if
        a tensor argument requires grad: when none does (a frozen embedding's output), it
        runs as under no_grad, whatever parameters ``fn`` uses."""
        fn, args = pos[0][0], pos[1:]
        rest = {k: v for k, v in kw.items() if k not in (
            "use_reentrant", "preserve_rng_state", "context_fn", "determinism_check", "debug")}
        flag = kw.get("use_reentrant")
        reentrant = flag is None or arg_truth(flag) is True
        tensors = [v for v, _ in args if v.kind == "tensor"]
        if reentrant and tensors and not any(v.grad for v, _ in args) and \
                all(v.src is not None for v in tensors):
            self.no_grad += 1
            self.no_grad_sites.append(call)
            self.checkpoint_calls.add(id(call))
            try:
                return self.apply(call, fn, args, rest, None)
            finally:
                self.no_grad -= 1
                self.no_grad_sites.pop()
        return self.apply(call, fn, args, rest, None)

    def call_path(self, call, path: str, pos, kw) -> Val:
        """A call of an imported name (torch API or another library)."""
        parts = path.split(".")
        name = parts[-1]
        vals = [v for v, _ in pos] + [v for v, _ in kw.values()]
        found = self._random_call(path, pos) if parts[0] == "random" else \
            self.cli_call(call, path)
        if found is not None:
            return found
        if path == "collections.OrderedDict" and not kw and not pos:
            return dict_of((), ())  # an empty dict, as ``{}``
        if path == "types.SimpleNamespace" and not pos and STAR_KW not in kw:
            # a plain object with these attributes (more are set on it later: an engine's
            # ``state``), as an object of a class of the user's
            obj = Val("object", ref=("anon", id(call), self.frame.id))
            for k, (v, _) in kw.items():
                self.state.env[("@", obj.ref, k)] = Binding(v, self.frame.stmt)
            return obj
        if path == "collections.defaultdict" and not kw and len(pos) == 1 and \
                pos[0][0].kind == "class" and isinstance(pos[0][0].ref, ClassInfo):
            # ``defaultdict(AverageMeter)``: a key read is an object of that class (one
            # stands for every key's)
            return Val("container", ref=("elem", self._construct(call, pos[0][0].ref, [], {})))
        if path == "collections.defaultdict" and not kw and len(pos) <= 1:
            return Val("container", ref="dict")  # (a key read is a key added)
        if path == "collections.OrderedDict" and not kw and len(pos) == 1:
            # a dict of those pairs, as ``dict(pairs)`` (``OrderedDict(m.named_parameters())``)
            v = pos[0][0]
            return dict_of_pairs(v) or Val("container", v.segs, v.leaf, "dict", each=v.each)
        if path == "copy.deepcopy" and len(pos) == 1 and pos[0][0].kind == "module" and \
                (copyable(pos[0][0].ref) or ref_kind(pos[0][0].ref) == "self"):
            return self._copied_module(call, pos[0][0], {})
        if path in ("copy.deepcopy", "copy.copy") and len(pos) == 1 and not kw and \
                scalars_only(pos[0][0]):
            # a copy of Python numbers and strings (a config dict): equal values
            return pos[0][0]
        if path == "torch.is_tensor" and len(pos) == 1 and not kw:
            return self.is_tensor(pos[0][0])  # (torch/__init__.py: isinstance(obj, Tensor))
        if path in ("torch.is_grad_enabled", "torch.autograd.grad_mode.is_grad_enabled") and \
                not pos and not kw:
            # grad mode as this run has it (a root runs with grad enabled, as its callers
            # mostly do): ``if not torch.is_grad_enabled(): return self.model(x)``
            return Val("scalar", ref=not self.no_grad)
        if path in ("torch.autograd.backward", "torch.autograd.grad") or \
                (len(parts) >= 2 and parts[-2] == "autograd" and name in ("backward", "grad")):
            api = "autograd.grad" if name == "grad" else "autograd.backward"
            root = kw.get("outputs" if name == "grad" else "tensors") or (pos[0] if pos else None)
            if root is not None:
                given = kw.get("inputs") or (pos[1] if name == "grad" and len(pos) > 1
                                             else None)
                self.backward(call, root[0], root[1], api, pos, kw,
                              inputs=given[0] if given else None)
                create = kw.get("create_graph") or (pos[4] if len(pos) > 4 else None)
                if create is not None and arg_truth(create) is False:
                    create = None  # (``create_graph=self.create_graph``, set False before)
                if name == "grad" and create is not None:
                    # create_graph=True: the gradients are differentiable functions of
                    # the graph they came from (double backward)
                    return Val("tuple", self.op(call, "grad", [root[0]]).segs)
                if name == "grad" and create is None and \
                        not any(a.star == "**" for a in call.args):
                    # without create_graph (and no ``**kwargs`` that may hold it) the
                    # gradients have no graph: what is computed
                    # from them (a MAML inner step) no longer depends on the loss's graph
                    g = self.cut_value("grad", call, root[0],
                                       Val("tensor", store=self.fresh_store()))
                    return Val("tuple", ref=("elem", g), src=g.src)
            return Val("tuple") if name == "grad" else NONE
        if path in ("torch.utils.checkpoint.checkpoint", "torch.utils.checkpoint") and pos and \
                pos[0][0].kind in ("func", "module", "class", "ns"):
            return self._checkpointed(call, pos, kw)
        if path == "functools.partial" and pos and pos[0][0].kind in ("func", "class"):
            # a callable of the user's with some arguments given now
            return Val("func", ref=Partial(pos[0][0], tuple(pos[1:]), tuple(kw.items())))
        if name in ("DataParallel", "DistributedDataParallel") and parts[:2] == ["torch", "nn"] \
                and pos and pos[0][0].kind == "module":
            # its forward calls the wrapped module's with the same inputs and returns what
            # that returns (one process, or the CPU): the module itself, as far as graphs go
            return pos[0][0]
        if path in T.MODULE_WRAPPERS and pos and pos[0][0].kind == "module":
            # ``weight_norm(nn.Linear(...))``: the same module, its weight reparametrized
            return pos[0][0]
        if path in ("collections.namedtuple", "typing.NamedTuple") and \
                isinstance(call, cst.Call):
            fields = tuple_fields(call.args)
            if fields:
                return Val("func", ref=TupleType(fields))
        if parts[0] in ("math", "numpy") and not kw:
            number = numeric_call(path, vals)
            if number is not None:
                return number
        if parts[0] == "numpy":
            # a NumPy result holds no graph: NumPy cannot read a tensor that requires grad
            # ("Can't call numpy() on Tensor that requires grad")
            return UNKNOWN
        if name in ("cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack") and \
                pos and pos[0][0].kind in ("container", "tuple") and pos[0][0].elts == ():
            # of a list the engine saw nothing added to: torch raises on an empty one
            # ("expected a non-empty list of Tensors"), so something it does not follow
            # filled it (a forward hook of a model it cannot see into): not known
            return UNKNOWN
        if parts[:3] == ["torch", "utils", "cpp_extension"]:
            # a compiled extension module (``load(name=..., sources=[...])``): an object of
            # its own, whose ``forward``/``backward`` functions are no tensor methods
            return Val("object", ref=("extension", id(call)))
        if parts[0] != "torch":
            if name in T.OPTIMIZER_SUFFIXES:
                self.escape(vals)
                return Val("optimizer")
            return self._propagate(vals)
        if len(parts) >= 3 and parts[1] == "nn" and parts[2] not in ("functional", "utils", "init") \
                and name[:1].isupper():
            if name in T.LEAF_CONSTRUCTORS:
                # a storage of its own, marked as a parameter's ("p"): optimizers given
                # it by name train it, and a graph that reaches it reaches a parameter
                # (of a module the engine may not know)
                flag = kw.get("requires_grad") or (pos[1] if len(pos) > 1 else None)
                if flag is not None and literal_truth(flag[1]) is False:
                    # ``nn.Parameter(t, requires_grad=False)``: a buffer-like tensor (a
                    # step counter, a running average) that needs no grad
                    return Val("tensor", store=("p", next(self._ids)),
                               src=(Cut("frozen_param", call),))
                return Val("tensor", leaf=not self.no_grad, store=("p", next(self._ids)))
            inplace = kw.get("inplace")
            flag = name in T.INPLACE_MODULES and (
                (inplace is not None and literal_truth(inplace[1]) is True) or
                any(literal_truth(n) is True for _, n in pos))
            ref = ("nn", name, id(call), flag, self.call_string())
            self.created.setdefault(ref, next(self._ids))
            if any(k in kw and literal_truth(kw[k][1]) is not False and
                   not (isinstance(kw[k][1], cst.Name) and kw[k][1].value == "None")
                   for k in T.PARAMS_CHANGED_WITH.get(name, ())):
                self.self_changing.add(ref)
            if flag:
                self.inplace_ctors[ref] = call
            # nn.ModuleDict({...}), nn.Sequential(OrderedDict([("fc", ...), ...])): named
            items = module_dict_items(pos) if name in ("ModuleDict", "Sequential") and \
                not kw else None
            children = tuple(v for _, v in items) if items else \
                self._module_children(call, name, pos)
            if not children:
                # a wrapper (DataParallel(net), a Sequential not followed): its call
                # reaches the wrapped modules' parameters without saying so
                self.escape(vals)
            if children:
                self.submodules.setdefault(ref, set()).update(
                    r for c in children for r in module_refs(c))
            if name == "Sequential" and not kw and pos and \
                    all(v.kind == "module" and isinstance(v.ref, tuple) for v, _ in pos):
                # nn.Sequential(a, b, c): its children are also its attributes "0", "1",
                # ... (torch/nn/modules/container.py), the paths a fix names
                for i, (v, _) in enumerate(pos):
                    self.state.env[("@", ref, str(i))] = Binding(v, self.frame.stmt)
            for key, v in items or ():
                # nn.ModuleDict({"enc": a}): its children are its attributes too
                # (``md["enc"]`` and ``md.enc`` are the same module)
                self.state.env[("@", ref, key)] = Binding(v, self.frame.stmt)
            if items and name == "ModuleDict":
                return Val("module", ref=ref)
            return Val("module", ref=ref, elts=children)
        if name == "GradScaler" and parts[1:2] in (["amp"], ["cuda"], ["cpu"]):
            return Val("object", ref=("GradScaler", id(call)))
        if len(parts) >= 2 and parts[1] == "optim":
            if "lr_scheduler" in parts:
                return UNKNOWN
            trained = self._trained_modules(call, pos)
            if isinstance(trained, Trained) and trained.mods:
                self.optimizers.add(trained)
            return Val("optimizer", ref=trained)

        # (see eval_method_call for what step() does with them)
        if len(parts) >= 2 and parts[1] == "distributions":
            return Val("dist", frozenset().union(*(v.segs for v in vals)) if vals else EMPTY,
                       any(v.leaf for v in vals))
        if path in ("torch.autograd.Variable", "torch.autograd.variable.Variable") and pos:
            # the legacy constructor: ``x.detach()`` with requires_grad set to the flag
            # (torch/csrc/autograd/python_legacy_variable.cpp); a new leaf when it is True
            rg = kw.get("requires_grad") or (pos[1] if len(pos) > 1 else None)
            res = self.cut_value("detach", call, pos[0][0], Val("tensor", store=pos[0][0].store))
            if rg is not None and literal_truth(rg[1]) is True and not self.no_grad:
                # (its history: this cut, and those of the tensor it was given)
                store = self.fresh_store()
                self.made_leaf(pos[0][0], call, store)
                return replace(res, leaf=True, store=store,
                               src=merge_src([res, pos[0][0]]) or res.src)
            return res
        if name in T.FACTORIES:
            rg = kw.get("requires_grad")
            leaf = rg is not None and literal_truth(rg[1]) is True and not self.no_grad
            first = pos[0][0] if pos else None
            if name in T.ALIASING_FACTORIES and first is not None and len(pos) == 1 and \
                    first.kind == "tensor" and rg is None:
                return first  # ``torch.as_tensor(t)``, ``torch.Tensor(t)``: ``t`` itself
            # known to have no graph: no requires_grad (or a literal False), no **kwargs,
            # and not as_tensor/asarray/Tensor of what may be a tensor (they return it)
            known = (rg is None or literal_truth(rg[1]) is False) and \
                not any(a.star == "**" for a in call.args) and (
                    name not in T.ALIASING_FACTORIES or
                    first is not None and first.kind in ("container", "tuple"))
            given = frozenset().union(*(v.segs for v in vals)) if vals else EMPTY
            reach = self.reach_of(given)[0] if given and not self.no_grad else EMPTY
            if known and not self.no_grad:
                # (of parameters themselves: ``torch.tensor([p for p in self.log_vars])``)
                reach = reach | frozenset().union(*(
                    param_owners(v) or () for v in vals if v.leaf))
            leaves = self.leaves_of(vals) if known and not self.no_grad else EMPTY
            if reach or leaves:
                # ``torch.tensor([log_prob, ...])``: a new tensor of the values of tensors
                # that had a graph (or required grad), cut from it
                self.cut_log.append((Cut("factory", call, True, reach, leaves=leaves),
                                     self.stamp()))
                for rec in self.accumulations.values():
                    if rec.live and not rec.eval_mode and rec.heads & given:
                        # the values gathered for a loss are read here (the cut that
                        # loses their graph is the finding, not the gathering)
                        self.consumed.add(id(rec.node))
            # (a new leaf that requires grad: its history is where its values came from)
            res = Val("tensor", leaf=leaf, store=self.fresh_store(),
                      src=(Cut("factory", call),) if known else
                      ((merge_src(vals) or ()) if leaf else None))
            if leaf and any(c.had_graph for v in vals for c in v.src or ()):
                # ``torch.tensor(total * T, requires_grad=True)`` of values cut from a
                # graph (whatever else went in: the result is a new leaf all the same)
                self.silencers[res.store] = call
            return res
        if parts[1:2] == ["nn"] and len(parts) >= 3 and parts[2] == "utils":
            return UNKNOWN
        if name.endswith("_") and len(parts) >= 3 and parts[2] == "init":
            return UNKNOWN
        inplace = kw.get("inplace")
        if inplace is not None and literal_truth(inplace[1]) is True and pos and \
                pos[0][0].store is not None:
            # F.relu(x, inplace=True) and friends change their input
            return self.in_place(call, pos[0][0], vals[1:])
        saves = "output" if name in T.OUTPUT_SAVING else "both" if \
            name in T.OUTPUT_AND_INPUT_SAVING else \
            T.known_function(path) and name not in T.NON_SAVING_FUNCTIONS
        if any(v.kind in ("module", "object") for v in vals):
            self.escape(vals)  # torch.compile(net), torch.func.functional_call(net, ...)
        # (``torch.scatter(x, 0, idx, src)``, ``torch.gather(x, 1, idx)``: the op's backward
        # saves its index, not its first argument, as the Tensor method's does)
        keep = vals[1:] if saves is True and name in T.RECEIVER_NOT_SAVED and pos else None
        return self._outputs(name, pos[1:], kw, self.op(call, name, vals, saves, keep=keep))

    def _function_apply(self, call, info: ClassInfo, fwd, pos, kw) -> Val:
        """``Fn.apply(*args)`` of a ``torch.autograd.Function`` subclass of this file: runs
        ``forward(ctx, *args)`` with grad mode off, then adds one node whose saved tensors
        are what ``ctx.save_for_backward`` got, at their versions when forward returned
        (torch/csrc/autograd/custom_function.cpp saves them after forward)."""
        ctx = Val("object", ref=("ctx", id(call)))
        self.ctx_saved[ctx.ref] = []
        self.no_grad += 1
        self.no_grad_sites.append(None)
        try:
            out = self.call_ref(call, self.method_ref(fwd, info, static=True),
                                [(ctx, call)] + list(pos), kw, None)
        finally:
            self.no_grad -= 1
            self.no_grad_sites.pop()
        saved_vals = self.ctx_saved.pop(ctx.ref, [])
        vals = [v for v, _ in pos] + [v for v, _ in kw.values()]
        if self.no_grad or not any(v.grad for v in vals):
            # forward ran with grad mode off for the engine's reasons: whether its
            # result is known to have no graph is what its inputs say
            src = self.no_grad_src() if self.no_grad else merge_src(vals)
            if out.kind == "tuple" and out.elts is not None:
                return Val("tuple", out.segs, out.leaf, elts=tuple(
                    Val(e.kind, e.segs, e.leaf, e.ref, store=e.store, src=src)
                    for e in out.elts), src=src)
            return Val(out.kind, out.segs, out.leaf, out.ref, out.elts, store=out.store,
                       src=src)
        back = self._method(info, "backward")
        # (an input whose gradient every return of backward gives as None gets none:
        # ``return grad_out, None`` of a straight-through estimator's codebook lookup)
        cut = _no_gradient_inputs(self.code_fact(_returned_nones, back), len(pos)) \
            if back is not None and not kw else ()
        for k in sorted(cut):
            if pos[k][0].grad:
                self.cut_value("function", call, pos[k][0], Val("tensor"))  # (logged)
        vals = [v for k, (v, _) in enumerate(pos) if k not in cut] + \
            [v for v, _ in kw.values()]
        parents = frozenset().union(*(v.segs for v in vals)) if vals else frozenset()
        inputs = tuple((node, v.segs) for k, (v, node) in enumerate(pos)
                       if k not in cut and isinstance(node, (cst.Name, cst.Attribute,
                                                             cst.Subscript)) and v.segs)
        # the version check runs when backward unpacks ctx.saved_tensors
        unpacks = back is not None and bool(match.findall(back, match.Attribute(
            attr=match.Name("saved_tensors") | match.Name("saved_variables"))))
        saved = self.saved_of(saved_vals) if unpacks else ()
        segs = self.new_seg(call, dotted(call.func) or "Function", parents, bool(saved),
                            inputs, saved, ins=vals)

        def result(v: Val) -> Val:
            return Val("tensor", segs, store=v.store if v.store is not None
                       else self.fresh_store())

        if out.kind == "tuple" and out.elts is not None:
            return Val("tuple", segs, elts=tuple(result(e) for e in out.elts))
        return result(out)

    def _random_call(self, path: str, pos) -> Val | None:
        """Python's ``random`` module. ``random.Random(seed)`` is an instance whose methods
        are the module's functions (those are bound methods of a hidden instance,
        Lib/random.py); ``sample``/``choices`` give elements of their population,
        ``choice`` one of them; None for the rest (any call of a library)."""
        name = path.removeprefix("random.")
        population = pos[0][0] if pos else None
        if name in ("Random", "SystemRandom"):
            return Val("ns", ref="random")
        if name in ("sample", "choices") and population is not None and \
                population.kind in ("container", "tuple"):
            return Val("container", population.segs, population.leaf,
                       population.ref if isinstance(population.ref, tuple) and
                       population.ref[0] == "elem" else None, each=population.each)
        if name == "choice" and population is not None and \
                population.kind in ("container", "tuple"):
            return self._element(population)
        return None

    def _add_to(self, key, recv: Val, attr: str, pos, vals, weak: bool = False) -> None:
        """The container at ``key`` after ``recv.<attr>(*vals)`` (``append``, ``extend``,
        ``add``...); ``weak``: it may have happened (the result joins the old value)."""
        old = self.state.env.get(key)
        self.state.env[key] = Binding(self._added(key, recv, attr, pos, vals, weak),
                                      old.stmt if old else self.frame.stmt)

    def _added(self, key, recv: Val, attr: str, pos, vals, weak: bool = False) -> Val:
        """The container ``recv`` (held at env key ``key``) after ``recv.<attr>(*vals)``."""
        new = join_all([recv] + vals)
        # what this iteration of the loop built and adds is that element's own
        # graph (a list of per-iteration losses holds a graph per element), when the
        # container outlives the iteration (not ``hidden = [h]`` made in this pass,
        # each of whose elements builds on the one before)
        cur = self.stamp()
        each = recv.each | frozenset(
            s for v in vals for s in v.segs
            if self.segs[s].stamp[:len(cur)] == cur) \
            if cur and key in self.entry_envs.get(cur[-1], ()) else recv.each
        one = attr in ("append", "appendleft", "extend") and len(pos) == 1 and \
            recv.kind == "container"
        shape = element_shape(recv, pos[0][0]) if one and attr != "extend" else None
        # parameters gathered for an optimizer (``decay.append(p)`` over
        # ``named_parameters()``): which modules' they are
        had = frozenset() if recv.elts == () else param_owners(recv)
        added = param_owners(pos[0][0]) if one else None
        store = ("params", had | added) if had is not None and added else None
        # a list of known elements (``losses = []``) appended to: one more, at the end
        elts = recv.elts + (pos[0][0],) if attr == "append" and one and not weak and \
            recv.elts is not None and len(recv.elts) < MAX_ELTS else None
        # (what it holds came from where its elements came from: a list of gradients taken
        # without create_graph is known to hold no graph)
        out = Val("container", new.segs, new.leaf, shape, elts, each=each, store=store,
                  src=merge_src([recv] + vals))
        if weak:
            out = replace(join(recv, out), store=store)
        return out

    def _string_slot(self, node, holder: Val) -> str | None:
        """The key of ``node``, ``d["obs"]`` (or ``d[k]`` with ``k`` a known string), when
        ``d`` holds ``holder``, a dict of known keys that surely has that one (a list
        there: its ``append`` changes that entry only); else None."""
        if not isinstance(node, cst.Subscript) or len(node.slice) != 1 or \
                not isinstance(node.slice[0].slice, cst.Index):
            return None
        index = self.eval(node.slice[0].slice.value)
        items = dict_items(holder)
        if not (isinstance(index.ref, tuple) and index.ref[0] == "str") or not items:
            return None
        key = index.ref[1]
        value = items[1][items[0].index(key)] if key in items[0] else None
        return key if key in dict_sure_keys(holder) and value is not None and \
            value.kind == "container" and dict_items(value) is None else None

    @staticmethod
    def _holder(node: cst.BaseExpression) -> cst.BaseExpression | None:
        """The container expression an element expression is in: ``d`` for ``d[k]``,
        ``d[i][j]`` or ``d.setdefault(k, [])``; None for another expression."""
        out = None
        while True:
            if isinstance(node, cst.Subscript):
                node = out = node.value
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
                    node.func.attr.value == "setdefault":
                node = out = node.func.value
            else:
                return out

    def eval_method_call(self, call: cst.Call, func: cst.Attribute) -> Val:
        attr = func.attr.value
        found = self._super_method(func)
        if found is not None:  # ``super().forward(x)``: the next class's method, on self
            pos, kw = self._args(call)
            return self.call_ref(call, self.method_ref(found[0], found[1]), pos, kw,
                                 self.frame.self_obj)
        if attr == "__init__" and is_super(func.value):
            # a base's __init__ the engine does not know (``nn.Module.__init__``): not
            # the running class's own again
            pos, kw = self._args(call)
            if not kw:
                self._container_init(call, pos)
            return NONE
        if attr == "forward" and is_super(func.value) and self.frame.self_obj is not None:
            info = self._class_of(self.frame.self_obj)
            if info is not None and info.container == "Sequential":
                # ``super().forward(x)`` of a subclass of nn.Sequential: its children in order
                pos, _ = self._args(call)
                return self.module_call(call, self.frame.self_obj, pos)
        recv = self.eval(func.value)
        if recv.kind == "ns":
            pos, kw = self._args(call)
            if isinstance(recv.ref, str) and is_global(recv.ref):  # ``utils.f(x)``: the user's
                self.touched.add(recv.ref)
                key = (recv.ref, attr)
                return self.apply(call, self.read(key) if key in self.state.env else UNKNOWN,
                                  pos, kw, func)
            if not isinstance(recv.ref, str):  # alternatives, or not known
                callee = Val("ns", ref=recv.ref.map(lambda r: f"{r}.{attr}")
                             if isinstance(recv.ref, Alts) else None)
                return self.apply(call, callee, pos, kw, func)
            return self.call_path(call, f"{recv.ref}.{attr}", pos, kw)
        if recv.kind == "class" and attr == "apply" and isinstance(recv.ref, ClassInfo) and \
                "Function" in recv.ref.bases:
            fwd = self._method(recv.ref, "forward")
            if fwd is not None:
                pos, kw = self._args(call)
                return self._function_apply(call, recv.ref, fwd, pos, kw)
        if recv.kind == "object" and isinstance(recv.ref, tuple) and recv.ref[0] == "ctx" and \
                attr in ("save_for_backward", "mark_dirty", "mark_non_differentiable"):
            pos, _ = self._args(call)
            if attr == "save_for_backward":
                self.ctx_saved.setdefault(recv.ref, []).extend(v for v, _ in pos)
            return NONE
        if recv.kind == "class" and isinstance(recv.ref, ClassInfo):
            m = self._method(recv.ref, attr)
            if m is not None:  # ``Memory.push(x)``: a class or static method
                pos, kw = self._args(call)
                static, first = self.bound_to(m, recv.ref, None)
                return self.call_ref(call, self.method_ref(m, recv.ref, static=static), pos, kw,
                                     first)
        info = self._class_of(recv) if recv.kind in ("object", "module") else None
        if info is not None:
            m = self._method(info, attr)
            if m is not None:
                pos, kw = self._args(call)
                static, first = self.bound_to(m, info, recv)
                return self.call_ref(call, self.method_ref(m, info, static=static), pos, kw,
                                     first)
            b = self.state.env.get(("@", recv.ref, attr))
            if b is not None:
                pos, kw = self._args(call)
                return self.apply(call, b.val, pos, kw, func)
        pos, kw = self._args(call)
        found = self.cli_method(call, recv, attr, pos, kw)
        if found is not None:  # ``parser.add_argument("--lr", default=1e-3)``
            return found
        vals = [v for v, _ in pos] + [v for v, _ in kw.values()]
        if recv.kind == "unknown" and not recv.grad and attr in T.MODULE_METHODS:
            # only an nn.Module has .parameters(), .zero_grad(), .train(), ...: a model
            # built elsewhere (an import, a factory) is a model from here on
            key = self.key_of(func.value)
            if key is not None:
                recv = Val("module", ref=("ext", key))
                if key[0] == "@":  # (``self.net``: a submodule of ``self``)
                    self.submodules.setdefault(key[1], set()).add(recv.ref)
                self.state.env[key] = Binding(recv, self.state.env[key].stmt
                                              if key in self.state.env else self.frame.stmt)
        if attr in T.BACKWARD_METHODS:
            if attr == "backward" and recv.kind == "scalar" and isinstance(recv.ref, tuple):
                # a Python number has no backward(): ``loss = 0.0`` after a loop that
                # never ran raises AttributeError here, the path ends
                self.state.dead = True
                return UNKNOWN
            if attr == "backward" and (recv.kind == "tensor" or recv.grad or not pos):
                given = kw.get("inputs") or (pos[3] if len(pos) > 3 else None)
                self.backward(call, recv, func.value, "tensor.backward", pos, kw,
                              inputs=given[0] if given else None)
                return NONE
            if pos:
                # a wrapper (accelerator.backward(loss)), unless the receiver is a tensor
                # the engine does not know (y.backward(grad_output))
                sure = recv.kind in ("object", "module") or attr != "backward"
                self.backward(call, pos[0][0], pos[0][1], "wrapper.backward", pos, kw, sure)
                return NONE
        if recv.kind == "object" and recv.ref and recv.ref[0] == "GradScaler" and \
                attr == "step" and pos and pos[0][0].kind == "optimizer":
            # GradScaler.step(optimizer): unscales the gradients, then optimizer.step()
            # (torch/amp/grad_scaler.py)
            self._optimizer_step(call, pos[0][0], pos[0][1], pos[1:])
            return UNKNOWN
        if recv.kind == "scalar":
            # a Python number or string: its methods give numbers, strings and bools
            # (``body.count("N")``, ``name.startswith("conv")``), lists of strings
            # (``split``), never a tensor
            if attr in ("split", "rsplit", "splitlines"):
                return Val("container", ref=("elem", SCALAR))
            known = _str_method(recv, attr, pos, kw)
            return known if known is not None else Val("scalar", src=recv.src)
        if recv.kind == "optimizer":
            if attr == "zero_grad" and isinstance(recv.ref, Trained):
                # zero_grad(set_to_none=True), the default since torch 2.0: a parameter
                # no later backward reaches keeps grad None, and step() skips it
                flag = kw.get("set_to_none") or (pos[0] if pos else None)
                if flag is None or literal_truth(flag[1]) is True:
                    self.grads_since_clear[recv.ref] = frozenset()
                    self.cleared_at[recv.ref] = (call, self.frame.stmt, len(self.backwards))
                    self.mark_cleared(recv.ref)
                else:
                    self.grads_since_clear.pop(recv.ref, None)
            if attr.endswith("step"):
                self._optimizer_step(call, recv, func.value, pos)
            if attr == "add_param_group" and isinstance(recv.ref, Trained):
                self.grown.add(recv.ref)
            return UNKNOWN
        if recv.kind in ("module", "unknown") and not kw and (
                (attr == "eval" and not pos) or (attr == "train" and len(pos) <= 1)):
            # eval(), or train(False) (nn.Module.eval takes no argument: a strategy's or a
            # trainer's eval(stream) is an evaluation loop of a library, not a mode)
            self.frame.eval_mode = (attr == "eval") != (bool(pos) and
                                                        literal_truth(pos[0][1]) is False)
            flag = True if attr == "train" and not pos else \
                literal_truth(pos[0][1]) if attr == "train" else False
            if recv.kind == "module" and isinstance(recv.ref, tuple) and flag is not None:
                # ``train(mode)`` / ``eval()`` set ``training`` on the module and each of its
                # submodules (torch/nn/modules/module.py): ``if self.training:`` is known
                # from here on (it is not before: a module can be called in either mode)
                mode = Val("scalar", ref=flag)
                for r in self._descendants({recv.ref}):
                    self.state.env[("@", r, "training")] = Binding(mode, self.frame.stmt)
        if recv.kind == "module":
            if attr == "zero_grad" and isinstance(recv.ref, tuple):
                flag = kw.get("set_to_none") or (pos[0] if pos else None)
                self._module_zero_grad(call, recv.ref, flag)
            if attr == "load_state_dict" and isinstance(recv.ref, tuple):
                # each parameter is overwritten in place (``param.copy_(input_param)``
                # under no_grad, torch/nn/modules/module.py): what a graph saved of them
                # is stale for its backward
                for r in self._descendants({recv.ref}):
                    self.bump(Val("tensor", store=("param", r)), call)
                    self.param_writes.add(r)  # (loaded: pretrained, or another's copy)
            if attr == "requires_grad_" and isinstance(recv.ref, tuple):
                self.set_frozen(recv.ref, literal_truth(pos[0][1]) if pos else True, call)
            if attr in ("to", "cuda", "cpu", "train", "eval", "float", "double",
                        "requires_grad_", "half"):
                return recv
            if (attr in ("named_modules", "named_children", "apply") or
                    (attr in ("modules", "children") and pos)) and isinstance(recv.ref, tuple):
                # the submodules escape to code the analyzer does not follow (an init
                # function, named pairs): forget the graphs their attributes hold; a loop
                # over modules()/children() (named or not) runs once per known submodule
                for r in self._descendants({recv.ref}) - {recv.ref}:
                    for k in [k for k in self.state.env if k[0] == "@" and k[1] == r]:
                        b = self.state.env[k]
                        self.state.env[k] = Binding(self._strip(b.val), b.stmt)
            if attr in ("parameters", "named_parameters") and module_refs(recv):
                # (of a name bound to one of two models: the parameters of one of them)
                leaf, store = not self.no_grad, ("param", recv.ref) \
                    if isinstance(recv.ref, tuple) else ("params", frozenset(module_refs(recv)))
                # named_parameters() yields (name, parameter) pairs
                pair = ("elem", Val("tuple", leaf=leaf, elts=(
                    SCALAR, Val("tensor", leaf=leaf, store=store)))) \
                    if attr == "named_parameters" else None
                return Val("container", leaf=leaf, ref=pair, store=store)
            if attr == "register_buffer" and len(pos) >= 2 and \
                    isinstance(pos[0][1], cst.SimpleString) and isinstance(recv.ref, tuple):
                self.state.env[("@", recv.ref, string_value(pos[0][1]))] = Binding(
                    pos[1][0], self.frame.stmt)
                return NONE
            if attr == "forward":
                return self.module_call(call, recv, pos)
            if attr in ("append", "extend", "add_module") and recv.elts is not None and \
                    isinstance(recv.ref, tuple) and recv.ref[:2] in (("nn", "ModuleList"),
                                                                     ("nn", "Sequential")):
                return self._grow_container(call.func.value, recv, attr, pos)
            if attr in ("add_module", "register_module") and len(pos) == 2 and \
                    isinstance(recv.ref, tuple) and pos[1][0].kind == "module" and \
                    module_refs(pos[1][0]):
                # ``self.add_module("conv", m)``: the submodule ``self.conv``, as an
                # attribute assignment registers it (torch/nn/modules/module.py); under a
                # name not known (``f"fc{i}"``) a submodule all the same
                self.submodules.setdefault(recv.ref, set()).update(module_refs(pos[1][0]))
                if isinstance(pos[0][0].ref, tuple) and pos[0][0].ref[0] == "str":
                    self.state.env[("@", recv.ref, pos[0][0].ref[1])] = Binding(
                        pos[1][0], self.frame.stmt)
                return NONE
            if attr == "register_forward_hook" and pos and isinstance(recv.ref, tuple) and \
                    pos[0][0].kind == "func":
                self.forward_hooks[recv.ref] = self.forward_hooks.get(recv.ref, ()) + (pos[0][0],)
                return UNKNOWN
            if attr in ("modules", "children", "named_modules", "named_children") and \
                    isinstance(recv.ref, tuple) and not pos:
                return Val("container", ref=(attr, recv.ref))
            if attr in ("items", "values", "keys") and not pos and isinstance(recv.ref, tuple) \
                    and recv.ref[:2] == ("nn", "ModuleDict"):
                # an nn.ModuleDict's children, in the order they were given
                children = [(k[2], b.val) for k, b in self.state.env.items()
                            if k[0] == "@" and k[1] == recv.ref and b.val.kind == "module"]
                if children:
                    names = [Val("scalar", ref=("str", name)) for name, _ in children]
                    mods = [m for _, m in children]
                    elts = mods if attr == "values" else names if attr == "keys" else \
                        [Val("tuple", elts=pair) for pair in zip(names, mods)]
                    return Val("container", elts=tuple(elts))
            if attr not in T.MODULE_METHODS_KEEPING_PARAMETERS:
                self.escape([recv] + vals)
            return UNKNOWN
        if recv.kind == "dist":
            if attr in ("sample", "sample_n", "enumerate_support"):
                return Val("tensor")
            return self.op(call, attr, [recv] + vals)
        items = dict_items(recv) if attr in ("keys", "values", "items") and not pos else None
        if items is not None:
            # a dict's views: its keys (strings of known value for a literal of string
            # keys), its values, its (key, value) pairs
            keys = tuple(Val("scalar", ref=("str", k)) for k in items[0]) if items else None
            vals = tuple(items[1]) if items else None
            if attr == "keys":
                return Val("container", elts=keys) if keys else UNKNOWN
            if attr == "values":
                return Val("container", recv.segs, recv.leaf, elts=vals, src=recv.src)
            if keys is None:
                # (keys not known: pairs of a key and one of its values)
                pair = Val("tuple", recv.segs, recv.leaf, elts=(SCALAR, self._element(recv)))
                return Val("container", recv.segs, recv.leaf, ("elem", pair), src=recv.src)
            pairs = tuple(Val("tuple", v.segs, v.leaf, elts=(k, v)) for k, v in zip(keys, vals))
            return Val("container", recv.segs, recv.leaf, elts=pairs, src=recv.src)
        if (recv.kind in ("container", "tuple") and attr in T.CONTAINER_ADDS) or (
                recv.kind in ("unknown", "none") and attr in T.LIST_ADDS):
            # an object we know nothing of is taken for a list only by a list's own
            # methods: update()/add()/put() are as often a metric's or a logger's
            merged = _updated_dict(recv, pos) if attr == "update" and not kw else None
            if merged is not None:
                # ``metrics.update({"loss": loss})`` of a dict of known keys with a dict of
                # known keys: those slots replaced, nothing piled up
                key = self.key_of(func.value)
                if key is not None:
                    self.state.env[key] = Binding(merged, self.state.env[key].stmt
                                                  if key in self.state.env else self.frame.stmt)
                return NONE
            if pos:
                self._accumulate(call, func.value, pos[0][0], pos[0][1])
            if isinstance(func.value, cst.IfExp):
                # ``(no_decay if bias else decay).append(p)``: one of the two gets it
                for branch in (func.value.body, func.value.orelse):
                    key = self.key_of(branch)
                    if key is not None and key in self.state.env:
                        self._add_to(key, self.state.env[key].val, attr, pos, vals, weak=True)
                return NONE
            key = self.key_of(func.value)
            if key is not None:
                self._add_to(key, recv, attr, pos, vals)
                return NONE
            outer = self._holder(func.value)
            key = self.key_of(outer) if outer is not None else None
            if key is not None and key in self.state.env:
                b = self.state.env[key]
                slot = self._string_slot(func.value, b.val)
                if slot is not None:
                    # ``episode["obs"].append(obs)`` of a dict of known keys: that key's
                    # list gets it, the others stay as they were
                    keys, values = dict_items(b.val)
                    values = tuple(self._added(key, v, attr, pos, vals) if k == slot else v
                                   for k, v in zip(keys, values))
                    self.state.env[key] = Binding(
                        dict_of(keys, values, dict_sure_keys(b.val)), b.stmt)
                    return NONE
                # ``records[name].append(out)``, ``d.setdefault(k, []).append(out)``: the
                # container the list is in holds ``out`` too (one level down)
                self._add_to(key, b.val, "add", pos, vals, weak=True)
            return NONE
        if attr == "clear" and not pos and not kw and recv.kind != "module":
            # (a tensor has no clear(): this is a list or dict) ``records[k].clear()``, ``for
            # v in records.values(): v.clear()``: a list in another container, emptied;
            # that container lets go of its graphs (which of them the list held is not
            # known). A container that holds the same tensors keeps them.
            outer = self._holder(func.value)
            for k in (self.key_of(outer) if outer is not None else None, recv.alias):
                b = self.state.env.get(k) if k is not None else None
                if b is not None and b.val.kind == "container" and b.val.segs:
                    self.state.env[k] = Binding(self._strip(b.val), b.stmt)
        if recv.kind == "container" and attr == "get" and pos and not kw and \
                isinstance(pos[0][0].ref, tuple) and pos[0][0].ref[0] == "str" and \
                dict_items(recv):
            # ``cfg.get("freeze_head", False)`` of a dict of known keys: that key's value,
            # or the default when the dict surely lacks it (every key known, none that one)
            keys, values = dict_items(recv)
            key = pos[0][0].ref[1]
            if key in keys and key in dict_sure_keys(recv):
                return values[keys.index(key)]
            if key not in keys and len(pos) <= 2:
                return pos[1][0] if len(pos) == 2 else NONE
        if recv.kind in ("container", "tuple") and not recv.grad:
            return self._propagate(vals)
        if recv.kind == "unknown" and any(attr in c.methods for c in self.classes.values()):
            if isinstance(recv.ref, tuple) and recv.ref[0] in ("modules", "children"):
                # ``for m in net.modules(): m.reset()``: the method runs on every
                # submodule of ``net`` that defines it
                for r in sorted(self._module_members(recv.ref), key=repr):
                    obj = Val("module", ref=r)
                    info_r = self._class_of(obj)
                    m = self._method(info_r, attr) if info_r is not None else None
                    if m is not None and not self._is_static(m):
                        self.call_ref(call, self.method_ref(m, info_r), pos, kw, obj)
                return UNKNOWN
            # maybe an object of this file whose method we cannot resolve: it may change
            # the receiver in any way; stay quiet about what it held, and about what
            # that method sets on any object of a class that defines it
            key = self.key_of(func.value)
            if key is not None and key in self.state.env:
                self.state.env[key] = Binding(UNKNOWN, self.state.env[key].stmt)
            self._forget_set_by(attr)
            return UNKNOWN
        if recv.kind == "tensor" and recv.ref == MODEL_OUTPUT and attr in T.CONTAINER_METHODS:
            # what a model of unknown class returned, with a dict's or list's method called
            # on it (``ret.pop("embed")``): a dict or list of what may carry its graph
            recv = self._as_container(func.value, recv)
        if recv.kind in ("container", "tuple"):
            if attr in ("pop", "popleft", "get", "values", "items", "copy", "keys", "index"):
                return Val("container", recv.segs, recv.leaf) if attr in (
                    "values", "items", "copy") else self._element(recv)
            if attr in ("clear",):
                key = self.key_of(func.value)
                if key is not None and key in self.state.env:
                    # empty again: a dict stays a dict, a list is as an empty literal
                    # (what is appended next gives it its element shape again)
                    empty = Val("container", ref="dict") if dict_items(recv) is not None \
                        else Val("container", elts=())
                    self.state.env[key] = Binding(empty, self.state.env[key].stmt)
                    self.released(key, empty)
                return NONE
            return self._propagate(vals)
        # tensors (or values that carry a graph)
        if attr == "detach_":
            self._cut_in_place(func.value, recv)
            return self.cut_value("detach", call, recv, Val("tensor"))
        if attr == "requires_grad_":
            flag = arg_truth(pos[0]) if pos else True
            if flag_modules(recv.store, flag) and (flag is not False or
                                                   not isinstance(func.value, cst.Attribute)):
                # ``for p in net.parameters(): p.requires_grad_(False)`` (each module's)
                for r in flag_modules(recv.store, flag):
                    self.set_frozen(r, flag, call)
                return recv
            if flag is False and isinstance(recv.store, tuple) and recv.store[0] == "param":
                self.maybe_frozen.add(recv.store[1])  # (one parameter of it: ``net.weight``)
            v = Val("tensor", recv.segs, flag is not False,
                    store=recv.store)
            if v.leaf:
                self.made_leaf(recv, call, recv.store)
            if not recv.segs:
                # the tensor object changes: every name and list that holds it sees it (a
                # forward hook's ``output.requires_grad_()`` is the module's output)
                self._set_requires_grad(recv, v.leaf)
            key = self.key_of(func.value)
            if key is not None:
                self.state.env[key] = Binding(v, self.frame.stmt)
            return v
        if attr == "register_hook" and pos and pos[0][0].kind in CALLABLE_KINDS and \
                (recv.segs or recv.leaf):
            # a hook runs when a backward reaches this tensor, and may do anything there
            # (GradCache's hook backpropagates the model mini-batch by mini-batch): a
            # backward through it trains what the engine cannot tell
            self.hooked |= recv.segs | ({recv.store} if recv.store is not None else set())
        if attr in T.CUT_METHODS:
            res = NUMBERS if attr in ("tolist", "size", "dim", "ndimension", "numel",
                                     "nelement") else \
                SCALAR if attr == "item" else \
                Val("tensor", store=recv.store) if attr in T.VIEW_METHODS else \
                Val("tensor", store=self.fresh_store()) if attr in T.NEW_TENSOR_METHODS \
                else Val("tensor")
            if recv.kind == "tensor" or recv.grad:
                kind = "detach" if attr == "detach" else \
                    "item" if attr in ("item", "tolist", "numpy") else "factory"
                return self.cut_value(kind, call, recv, res)
            return res
        if not (recv.kind in ("tensor", "unknown") or recv.grad):
            return self._propagate(vals)
        if attr.endswith("_") and not attr.startswith("_") and attr not in T.NOT_INPLACE:
            if isinstance(func.value, cst.Attribute) and func.value.attr.value == "data":
                # ``w.data.normal_(0, 0.1)`` writes the parameter (an initialisation): no
                # graph of a loss is cut there
                self.cut_log = [e for e in self.cut_log if e[0].node is not func.value]
            res = self.in_place(call, recv, vals, func.value, pos[0][1] if pos else None)
            key = self.key_of(func.value)
            if key is not None and res.segs:
                self.state.env[key] = Binding(res, self.frame.stmt)
            return res
        if recv.kind == "unknown" and not recv.grad:
            return self._propagate(vals)
        if attr == "type" and not pos and not kw:
            return SCALAR  # (``x.type()``: the name of its type, "torch.FloatTensor")
        saves = "output" if attr in T.OUTPUT_SAVING else "both" if \
            attr in T.OUTPUT_AND_INPUT_SAVING else attr not in T.NON_SAVING_METHODS
        operands = [recv] if attr in T.ARGUMENT_GIVES_NO_GRAPH else [recv] + vals
        res = self.op(call, attr, operands, saves,
                      keep=vals if saves is True and attr in T.RECEIVER_NOT_SAVED else None)
        if attr in T.VIEW_METHODS and recv.store is not None:
            res = Val(res.kind, res.segs, res.leaf, store=recv.store, src=res.src)
        return self._outputs(attr, pos, kw, res)

    def _as_container(self, node, val: Val) -> Val:
        """``val`` (held by ``node``) known to be a dict or a list after all: a container
        of its graph, which ``node``'s variable holds from now on."""
        out = Val("container", val.segs, val.leaf, src=val.src)
        key = self.key_of(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
        if key is not None and key in self.state.env:
            self.state.env[key] = Binding(out, self.state.env[key].stmt)
        return out

    def _outputs(self, name: str, after, kw, res: Val) -> Val:
        """The result of op ``name`` as the tuple it returns when it returns several
        tensors (``x.sort()``; ``torch.max(x, 1)``, given a dim, not ``torch.max(x)`` or
        ``torch.max(x, y)``): the outputs that never carry a graph (indices) are tensors
        without one (native_functions.yaml / derivatives.yaml, the table's ``nograd`` and
        ``returns``), a named tuple (``.values``, ``.indices``: the table's ``fields``).
        ``after``: the positional arguments after the input."""
        counts, nograd = torchdb.output_counts(name), torchdb.nograd_outputs(name)
        if not nograd or res.kind != "tensor" or not counts:
            return res
        if min(counts) == 1:
            # one overload returns a tensor: the tuple one is the one given a dim
            dim = kw.get("dim") or (after[0] if after else None)
            if dim is None or dim[0].kind != "scalar":
                return res
        fields = torchdb.output_fields(name)
        return Val("tuple", res.segs, res.leaf, TupleType(fields) if fields else None, tuple(
            Val("tensor", store=self.fresh_store(), src=res.src) if i in nograd else res
            for i in range(max(counts))), src=res.src)

    def _forget_set_by(self, attr: str) -> None:
        """An unresolved call of method ``attr`` may have run on any object of this file
        whose class defines it: the attributes that method assigns on ``self`` become
        unknown on every such object."""
        assigned = {}  # object ref -> what that method assigns on it
        for key in [k for k in self.state.env if k[0] == "@"]:
            if key[1] not in assigned:
                info = self._class_of(Val("object", ref=key[1]))
                m = self._method(info, attr) if info is not None else None
                assigned[key[1]] = self.code_fact(self_assigned, m) if m is not None \
                    else frozenset()
            if key[2] in assigned[key[1]]:
                self.state.env[key] = Binding(UNKNOWN, self.state.env[key].stmt)

    def _decorated_no_grad(self, func) -> bool:
        """Whether a decorator of ``func`` runs it with grad mode off: ``@torch.no_grad()``,
        ``@torch.inference_mode()``, or a decorator of the user's whose code applies one of
        those to the function it is given (yolov5's ``@smart_inference_mode()``: ``return
        torch.inference_mode()(fn)``, or a wrapper that calls it inside ``with
        torch.no_grad():``)."""
        for d in getattr(func, "decorators", ()):
            expr = d.decorator
            call = expr if isinstance(expr, cst.Call) else cst.Call(func=expr)
            if self._grad_context(call) == "off":
                return True
            named = call.func
            if isinstance(named, (cst.Name, cst.Attribute)) and dotted(named) is not None:
                v = self.eval(named)
                if v.kind == "func" and isinstance(v.ref, FuncRef) and \
                        isinstance(v.ref.node, cst.FunctionDef) and \
                        self.code_fact(_applies_no_grad, v.ref.node):
                    return True
        return False


    def _decorated_enable_grad(self, func) -> bool:
        """Whether a decorator of ``func`` runs it with grad mode on:
        ``@torch.enable_grad()``, ``@torch.set_grad_enabled(True)``."""
        return any(self._grad_context(d.decorator if isinstance(d.decorator, cst.Call)
                                      else cst.Call(func=d.decorator)) == "on"
                   for d in getattr(func, "decorators", ()))


def _applies_no_grad(func: cst.FunctionDef) -> bool:
    """Whether the decorator ``func`` (with the functions nested in it) turns grad mode
    off around the function it decorates: it calls a ``no_grad()`` / ``inference_mode()``
    object on it (``torch.inference_mode()(fn)``, ``(torch.inference_mode if new else
    torch.no_grad)()(fn)``) or runs code under ``with torch.no_grad():``; and nowhere turns
    it on (``enable_grad``, ``set_grad_enabled``)."""
    def context(expr) -> str | None:
        if isinstance(expr, cst.IfExp):
            both = {context(expr.body), context(expr.orelse)}
            return "off" if both == {"off"} else None
        name = dotted(expr)
        last = name.rsplit(".", 1)[-1] if name is not None else None
        if last in T.NO_GRAD_CONTEXTS:
            return "off"
        return "on" if last in ("enable_grad", "set_grad_enabled") else None

    off = False
    todo = [func]
    while todo:
        n = todo.pop()
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Call):
            off = off or context(n.func.func) == "off"  # ``torch.inference_mode()(fn)``
        if isinstance(n, cst.WithItem) and isinstance(n.item, cst.Call):
            off = off or context(n.item.func) == "off"
        if isinstance(n, (cst.Name, cst.Attribute)) and context(n) == "on":
            return False
        todo.extend(children_of(n))
    return off


def _updated_dict(recv: Val, pos) -> Val | None:
    """``recv`` after ``recv.update(d)``, when both are dicts whose keys are all known (a
    literal): the keys of ``d`` set to its values; else None."""
    old = dict_items(recv)
    new = dict_items(pos[0][0]) if len(pos) == 1 else None
    if not old or not new:
        return None
    keys, vals = list(old[0]), list(old[1])
    for k, v in zip(*new):
        if k in keys:
            vals[keys.index(k)] = v
        else:
            keys.append(k)
            vals.append(v)
    sure = dict_sure_keys(recv) | dict_sure_keys(pos[0][0])
    return Val("container", frozenset().union(*(v.segs for v in vals)),
               any(v.leaf for v in vals), ("dict", tuple(keys), tuple(vals), frozenset(sure)),
               src=merge_src(vals))


def _only_reads(expr) -> bool:
    """An expression that only reads names and constants and compares them (evaluating it
    again records nothing)."""
    todo = [expr]
    while todo:
        n = todo.pop()
        if not isinstance(n, (cst.Name, cst.Attribute, cst.Comparison, cst.ComparisonTarget,
                              cst.BooleanOperation, cst.UnaryOperation, cst.SimpleString,
                              cst.Integer)):
            return False
        todo.extend(children_of(n))
    return True


# str methods that compute a string or a bool from the string and their arguments alone
_STR_METHODS = frozenset({
    "lower", "upper", "casefold", "strip", "lstrip", "rstrip", "replace", "startswith",
    "endswith", "removeprefix", "removesuffix", "title", "capitalize", "isdigit",
    "isalpha", "isalnum", "islower", "isupper"})


def _str_method(recv: Val, attr: str, pos, kw) -> Val | None:
    """``norm_type.lower()``, ``name.startswith("conv")`` on a string of known value, with
    arguments of known value: the string or bool Python computes; else None."""
    if attr not in _STR_METHODS or kw or not (isinstance(recv.ref, tuple) and
                                              recv.ref[0] == "str"):
        return None
    args = []
    for v, _ in pos:
        if not (isinstance(v.ref, tuple) and v.ref[0] in ("str", "int") and v.kind == "scalar"):
            return None
        args.append(v.ref[1])
    try:
        out = getattr(recv.ref[1], attr)(*args)
    except (TypeError, ValueError):
        return None
    if isinstance(out, bool):
        return Val("scalar", ref=out)
    return Val("scalar", ref=("str", out)) if isinstance(out, str) and len(out) <= 4096 else None


def _returned_nones(backward) -> tuple | None:
    """For each ``return`` of a custom Function's ``backward``, which elements of its
    tuple are the literal None; None when one return is not a tuple display."""
    returns = [r.value for r in match.findall(backward, match.Return())]
    if not returns or not all(isinstance(r, cst.Tuple) for r in returns):
        return None
    return tuple(tuple(isinstance(e.value, cst.Name) and e.value.value == "None"
                       for e in r.elements) for r in returns)


def _no_gradient_inputs(nones: tuple | None, n: int) -> frozenset:
    """The positions (among the ``n`` inputs ``apply`` was given) whose gradient every
    return of ``backward`` gives as None (``nones``: :func:`_returned_nones`)."""
    if nones is None or any(len(r) != n for r in nones):
        return frozenset()
    return frozenset(k for k in range(n) if all(r[k] for r in nones))
