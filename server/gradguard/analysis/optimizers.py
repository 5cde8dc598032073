"""What optimizers do: which modules' parameters one trains (its parameter groups,
followed through the names that gathered them), what ``step()`` changes in place (only
the parameters a backward reached since ``zero_grad()``), ``zero_grad()`` of an
optimizer or of a module, and a model built again after its optimizer was."""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m

from gradguard.analysis.events import Step
from gradguard.analysis.frames import FuncRef, LoopCtx, Trained, calls_in, dotted, literal_truth
from gradguard.analysis.param_names import picked_from, split_modules
from gradguard.analysis.python_semantics import names_read
from gradguard.analysis.values import Binding, Val, module_refs, param_owners


class OptimizerSemantics:
    """Part of :class:`gradguard.analysis.interp.Interpreter` (a mixin over its state)."""

    def mark_cleared(self, opt) -> None:
        """``opt.zero_grad()`` on this path: a step with no backward since updates
        nothing. Kept in the state (``("#cleared", id)``: True after the zero_grad, False
        after a backward), so that a step reached also by paths with a backward since
        (``if accumulated != 0: opt.step()`` after a loop) is not taken for one."""
        key = ("#cleared", id(opt))
        self.cleared_keys.add(key)
        self.state.env[key] = Binding(Val("scalar", ref=True), None)

    def _trained_modules(self, call: cst.Call, pos):
        """What an optimizer trains: ``(names, refs)`` of the modules whose
        ``.parameters()`` it was given (``Adam(netG.parameters())`` -> ({"netG"}, {ref})),
        or None when it cannot be told. Given parameters gathered in a variable
        (``[{"params": decay}, {"params": no_decay}]`` filled from
        ``named_parameters()``), the modules they came from; their names are those the
        running function binds them to."""
        if not call.args:
            return None
        first = self._bound_expr(call.args[0].value)
        names, refs, given = set(), set(), {}
        for sub in calls_in(first):
            if isinstance(sub.func, cst.Attribute) and sub.func.attr.value in (
                    "parameters", "named_parameters"):
                name = dotted(sub.func.value)
                if name is None and isinstance(sub.func.value, (cst.Subscript, cst.Attribute)):
                    # ``Adam(actors[0].parameters())``, ``net.layers[0].compress``: named
                    # as written
                    name = cst.Module([]).code_for_node(sub.func.value)
                if name:
                    names.add(name)
                v = self.eval(sub.func.value)
                if isinstance(v.ref, tuple):
                    refs.add(v.ref)
                    given[sub] = v.ref
        if not names and isinstance(first, (cst.List, cst.Tuple)) and first.elements and all(
                isinstance(e, cst.Element) and isinstance(e.value, (cst.Name, cst.Attribute))
                for e in first.elements):
            # ``Adam([self.log_alpha])``, ``Adam([model.memory.keys])``: tensors of their
            # own (a module's parameter attribute among them: that one, not the module's
            # other parameters)
            vals = [self.eval(e.value) for e in first.elements]
            if all(v.kind == "tensor" and v.store is not None for v in vals):
                return Trained(frozenset(), frozenset(), site=call,
                               stores=frozenset(v.store for v in vals))
        pure = _only_parameters(first)
        owners = param_owners(pos[0][0]) if pos and not call.args[0].keyword else None
        if owners and all(isinstance(r, tuple) for r in owners) and not (
                pure and owners == refs):
            # the value says it: these modules' parameters and nothing else
            if owners != refs:
                names = {k[1] for k, b in self.state.env.items() if k[0] == self.frame.id
                         and b.val.kind == "module" and b.val.ref in owners}
                picked = picked_from(pos[0][0])
                if picked:
                    # parameters picked by name out of a model (``[p for n, p in
                    # model.named_parameters() if "bert" in n]``): named by that model
                    names = {self.module_names.get(r[0], ("model",))[0] for r in picked}
                elif len(names) != len(owners):
                    # modules no local name holds (``net.side_parameters()`` gathers
                    # submodules' parameters, ``model.get_optimizer_parameters(config)``
                    # its parameter groups): named by what gave them
                    func = first.func if isinstance(first, cst.Call) else None
                    label = dotted(func) if func is not None else None
                    if label is None:
                        return None
                    names = {label + ("()" if not first.args else "(...)")}
            refs, pure = set(owners), True
        if not names:
            return None
        keys = tuple((name, key) for name in sorted(names) if name.isidentifier()
                     for key in (self.lookup_key(name),) if key is not None)
        mods, left = frozenset(self._descendants(refs)), frozenset()
        filtered = _requires_grad_filter(first)
        if filtered is not None:
            # ``[p for p in model.parameters() if p.requires_grad]``: what is frozen now
            # is not among its parameters, even once it requires grad again
            inner = {given[sub] for sub in calls_in(filtered) if sub in given}
            left = frozenset(self._descendants(inner) & self.frozen)
        # (picked by names the engine decided, in every part that picks by name, each
        # module's parameters all or none: the modules are known)
        picked = picked_from(pos[0][0]) if pos else []
        by_name = bool(_name_filters(first)) and len(picked) < len(_name_filters(first)) or \
            bool(split_modules(picked))
        return Trained(frozenset(names), frozenset(refs), pure and not by_name,
                       mods=mods - left, site=call, keys=keys, built=next(self._ids),
                       left_frozen=left, filtered=filtered if left else None, by_name=by_name)

    def _bound_expr(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        """The expression a local name was last assigned (``params = itertools.chain(
        G.parameters(), E.parameters())``), followed through names bound to names; else
        ``expr`` itself. Only a plain one-target assignment counts (not ``+=``, a loop
        target or an unpacking), so what it names is what the name holds."""
        seen = set()
        while isinstance(expr, cst.Name) and expr.value not in seen:
            seen.add(expr.value)
            b = self.state.env.get(self.key_of(expr))
            line = b.stmt if b is not None else None
            if not isinstance(line, cst.SimpleStatementLine):
                break
            bound = [a.value for a in line.body if isinstance(a, cst.Assign) and
                     len(a.targets) == 1 and isinstance(a.targets[0].target, cst.Name) and
                     a.targets[0].target.value == expr.value]
            if len(bound) != 1:
                break
            expr = bound[0]
        return expr

    def _optimizer_step(self, call, opt: Val, opt_node, pos) -> None:
        """``opt.step(closure)``: the closure runs (its forward and backward), then the
        parameters of the modules the optimizer trains change in place; after
        ``zero_grad()`` only those a backward has reached since (a parameter whose grad is
        None is skipped, torch/optim/optimizer.py)."""
        trained = opt.ref if isinstance(opt.ref, Trained) else Trained(None, ())
        if pos and pos[0][0].kind == "func" and isinstance(pos[0][0].ref, FuncRef):
            closure = pos[0][0].ref
            ctx = LoopCtx(self._loop_key(call), call, self.frame.id,
                          closure.node.body.body[0]
                          if isinstance(closure.node, cst.FunctionDef) and
                          isinstance(closure.node.body, cst.IndentedBlock) else None)
            self._run_loop(ctx, lambda: self.call_ref(call, closure, [], {}, None))
        # the update happens after the closure's forward and backward
        at = self.cleared_at.get(opt.ref)
        reached = self.grads_since_clear.get(opt.ref) if at is not None else None
        flag = self.state.env.get(("#cleared", id(opt.ref)))
        cleared = at[:2] if at is not None and at[2] == len(self.backwards) and \
            reached == frozenset() and flag is not None and flag.val.ref is True else None
        self.step_recs.append(Step(call, opt.ref if isinstance(opt.ref, Trained) else None,
                                   self.stamp(), opt_node, len(self.backwards), cleared,
                                   self.frame.stmt,
                                   (at, reached) if reached is not None else None,
                                   tuple((f.id, f.stmt, f.func) for f in self.frames),
                                   self._rebound_model(trained)))
        self.param_updates += 1
        self.step_log.append(trained)
        stepped = self._descendants(trained.refs) - trained.left_frozen
        reached = self.grads_since_clear.get(opt.ref) if opt.ref in self.grads_since_clear \
            else None
        if reached is not None:
            # only what a backward since zero_grad() reached has a gradient
            stepped &= self._descendants(reached)
        for r in stepped if not trained.by_name else ():
            # (parameters picked by name: which ones change is not known)
            self.bump(Val("tensor", store=("param", r)), call)

    def _rebound_model(self, trained: Trained) -> tuple | None:
        """Where the model an optimizer took the parameters of was built again after it
        (the optimizer still holds the first one's parameters): ``(name, statement,
        False)`` when a variable it took them from holds another module now; ``(name,
        frames, again)`` when one of the modules' submodules was replaced since
        (``model.reset()`` building its layers anew), the frames as there, ``again``: in
        a pass of a loop the step runs in that started after the optimizer was built (a
        ``forward`` that builds its layers on every call); else None."""
        for name, key in trained.keys:
            b = self.state.env.get(key)
            if b is not None and b.stmt is not None and b.val.kind == "module" and \
                    module_refs(b.val) and not set(module_refs(b.val)) & trained.refs:
                return name, b.stmt, False
        if trained.names and len(trained.names) == 1:
            recs = [self.replaced_modules.get(r) for r in trained.mods]
            for rec in sorted((r for r in recs if r is not None), key=lambda r: r[0]):
                if rec[0] > trained.built:  # (the first replaced since)
                    loops = {self.pass_loop.get(p) for _, p in self.loop_stack}
                    again = any(p > trained.built and self.pass_loop.get(p) in loops
                                for p in rec[2])
                    return next(iter(trained.names)), rec[1], again
        return None

    def _module_zero_grad(self, call, ref, flag) -> None:
        """``module.zero_grad()`` sets the gradients of the module's parameters and its
        submodules' to None (``set_to_none=True``, the default since torch 2.0,
        torch/nn/modules/module.py): an optimizer that trains only those modules has no
        gradient until a later backward reaches them, as after its own ``zero_grad()``;
        one that also trains others keeps only what reached those."""
        cleared = self._descendants({ref})
        to_none = flag is None or literal_truth(flag[1]) is True
        for t in self.optimizers:
            if not t.mods & cleared:
                continue
            if not to_none:
                self.grads_since_clear.pop(t, None)
            elif t.mods <= cleared:
                self.grads_since_clear[t] = frozenset()
                self.cleared_at[t] = (call, self.frame.stmt, len(self.backwards))
                self.mark_cleared(t)
            elif self.grads_since_clear.get(t) is not None:
                self.grads_since_clear[t] = self.grads_since_clear[t] - cleared


def _requires_grad_filter(expr):
    """The part of an optimizer's first argument that keeps only the parameters that
    require grad: ``[p for p in net.parameters() if p.requires_grad]`` (or a generator,
    or ``filter(lambda p: p.requires_grad, ...)``), alone or inside a list of groups;
    None when there is none."""
    if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
        tests = [c.test for c in _comp_fors(expr.for_in) for c in c.ifs]
        return expr if any(_tests_requires_grad(t) for t in tests) else None
    if isinstance(expr, cst.Call):
        name = (dotted(expr.func) or "").rsplit(".", 1)[-1]
        if name == "filter" and len(expr.args) == 2 and \
                isinstance(expr.args[0].value, cst.Lambda) and \
                _tests_requires_grad(expr.args[0].value.body):
            return expr
        if name in ("list", "tuple") and len(expr.args) == 1:
            return _requires_grad_filter(expr.args[0].value)
        return None
    if isinstance(expr, (cst.List, cst.Tuple)):
        found = [f for e in expr.elements if isinstance(e, cst.Element)
                 for f in (_requires_grad_filter(e.value),) if f is not None]
        return found[0] if len(found) == 1 else None
    if isinstance(expr, cst.Dict):
        found = [f for e in expr.elements if isinstance(e, cst.DictElement)
                 for f in (_requires_grad_filter(e.value),) if f is not None]
        return found[0] if len(found) == 1 else None
    return None


def _name_filters(expr) -> list:
    """The parts of an optimizer's first argument (or of its parameter groups) that pick
    parameters by their names: comprehensions over ``named_parameters()`` with a test
    that reads the name (``if "features_extractor" not in n``)."""
    out = []
    for node in _comprehensions(expr):
        for c in _comp_fors(node.for_in):
            target = c.target
            name = target.elements[0].value if isinstance(target, cst.Tuple) and \
                target.elements else None
            if isinstance(name, cst.Name) and isinstance(c.iter, cst.Call) and \
                    isinstance(c.iter.func, cst.Attribute) and \
                    c.iter.func.attr.value == "named_parameters" and any(
                        name.value in names_read(t.test) for t in c.ifs):
                out.append(node)
                break
    return out


def _comprehensions(expr) -> list:
    """The list comprehensions and generator expressions in ``expr`` (itself included)."""
    found = m.findall(expr, m.ListComp() | m.GeneratorExp())
    return ([expr] if m.matches(expr, m.ListComp() | m.GeneratorExp()) else []) + \
        [n for n in found if n is not expr]


def _comp_fors(for_in):
    while for_in is not None:
        yield for_in
        for_in = for_in.inner_for_in


def _tests_requires_grad(test) -> bool:
    """``p.requires_grad``, alone or as one side of an ``and``."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _tests_requires_grad(test.left) or _tests_requires_grad(test.right)
    return isinstance(test, cst.Attribute) and test.attr.value == "requires_grad"


def _only_parameters(expr) -> bool:
    """Whether an optimizer's first argument is made of modules' ``parameters()`` only:
    ``net.parameters()``, ``list(...)``, ``a + b``, ``itertools.chain(...)``,
    ``filter(f, ...)``, a list of those or of ``{"params": ..., "lr": ...}`` groups."""
    if isinstance(expr, cst.Call):
        f = expr.func
        if isinstance(f, cst.Attribute) and f.attr.value == "parameters" and not expr.args:
            return True
        name = dotted(f) or ""
        last = name.rsplit(".", 1)[-1]
        if last in ("list", "tuple", "chain") and expr.args:
            return all(not a.keyword and _only_parameters(a.value) for a in expr.args)
        if last == "filter" and len(expr.args) == 2:
            return _only_parameters(expr.args[1].value)
        return False
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        return _only_parameters(expr.left) and _only_parameters(expr.right)
    if isinstance(expr, (cst.List, cst.Tuple)):
        return bool(expr.elements) and all(
            not isinstance(e, cst.StarredElement) and _only_parameters(e.value)
            for e in expr.elements)
    if isinstance(expr, cst.Dict):
        groups = {e.key.evaluated_value: e.value for e in expr.elements
                  if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)}
        return "params" in groups and _only_parameters(groups["params"]) and \
            len(groups) == len(expr.elements)
    return False
