"""Parameters picked by their names: ``[p for n, p in model.named_parameters() if "bert"
in n]`` decided name by name.

``named_parameters()`` yields each parameter under its dotted path (torch/nn/modules/
module.py): the attribute names down the submodules, then the parameter's own name
(``encoder.0.weight``). For a module built in the analysed code, those paths are known:
a submodule is an attribute holding a module (``"0"``, ``"1"``... of an ``nn.Sequential``,
the keys of an ``nn.ModuleDict``), a module's own parameters are the ``nn.Parameter``
attributes of the user's classes and, for torch.nn classes, the names the table lists
(``weight``, ``bias``: probed at generation time). A comprehension whose tests read only
the name (``"bert" in n``, ``n.startswith("fc")``, ``not any(nd in n for nd in
no_decay)``) is then decided for each parameter, and keeps those. An optimizer given
such parts trains the modules whose parameters they hold (a module split between kept
and not kept, :func:`split_modules`, leaves which ones its step changes unknown).
Anything not known (a module of a class not followed, a ``ModuleList`` whose length is
not known, a class that registers parameters under computed names, a test that reads
anything else) leaves it undecided: the caller keeps what it knew.
"""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m

from gradguard.analysis import torchapi as T
from gradguard.analysis.values import Val, dict_items

# (a class that registers parameters or submodules under names the engine cannot read)
_DYNAMIC_REGISTRATION = ("register_parameter", "add_module", "register_module", "setattr",
                         "ParameterList", "ParameterDict", "__setattr__")


def picked_by_name(interp, node, it: Val) -> Val | None:
    """The value of a list comprehension or generator expression that keeps, out of
    ``it`` (a module's ``named_parameters()``), the parameters whose names pass its
    tests: a container of those parameters (store ``("picked", the modules they belong
    to, the module they were picked from, the (module, name) pairs kept, every such pair
    of that module)``); None when it is not such a comprehension, or a name or a test is
    not known."""
    if not isinstance(node, (cst.ListComp, cst.GeneratorExp)) or \
            node.for_in.inner_for_in is not None or not node.for_in.ifs:
        return None
    target = node.for_in.target
    if not isinstance(target, cst.Tuple) or len(target.elements) != 2 or \
            not all(isinstance(e.value, cst.Name) for e in target.elements):
        return None
    var, param = (e.value.value for e in target.elements)
    st = it.store
    if not isinstance(node.elt, cst.Name) or node.elt.value != param or \
            not (isinstance(it.ref, tuple) and it.ref[0] == "elem") or \
            not (isinstance(st, tuple) and st[0] == "param" and isinstance(st[1], tuple)):
        return None
    names = module_param_names(interp, st[1])
    if names is None:
        return None
    kept = set()
    for name, owner in names:
        verdicts = [_truth(c.test, {var: name}, interp) for c in node.for_in.ifs]
        if None in verdicts:
            return None
        if all(verdicts):
            kept.add((owner, name))
    owners = frozenset(o for o, _ in kept)
    return Val("container", leaf=it.leaf,
               store=("picked", owners, st[1], frozenset(kept),
                      frozenset((o, n) for n, o in names)))


def picked_from(v: Val) -> list:
    """The parts of ``v`` (an optimizer's argument: a list, a parameter group, a list of
    groups) that picked parameters by names the engine decided: ``(the module they were
    picked from, the (module, name) pairs kept, every pair of that module)`` each."""
    st = v.store
    if isinstance(st, tuple) and st[0] == "picked":
        return [st[2:]]
    items = dict_items(v)
    parts = items[1] if items else v.elts if v.kind in ("container", "tuple") else None
    return [p for part in parts or () for p in picked_from(part)]


def split_modules(parts: list) -> set:
    """The modules some of whose parameters the parts (of :func:`picked_from`) picked,
    and some not (a Linear's weight in a group with weight decay, its bias nowhere)."""
    kept = set().union(*(k for _, k, _ in parts)) if parts else set()
    every = set().union(*(a for _, _, a in parts)) if parts else set()
    some = {o for o, _ in kept}
    return {o for o, n in every - kept if o in some}


def module_param_names(interp, ref, prefix: str = "", depth: int = 0) -> list | None:
    """``(dotted name, owning module)`` of each parameter ``named_parameters()`` of the
    module ``ref`` yields; None when one is not known."""
    if depth > 12 or not isinstance(ref, tuple):
        return None
    env = interp.state.env
    attrs = [(k[2], b.val) for k, b in env.items() if k[0] == "@" and k[1] == ref]
    children = [(a, v.ref) for a, v in attrs if v.kind == "module"]
    if not all(isinstance(r, tuple) for _, r in children) or \
            not set(interp.submodules.get(ref, ())) <= {r for _, r in children}:
        return None  # (a submodule the attributes do not name)
    if ref[0] == "nn":
        kind = ref[1]
        if kind in ("Sequential", "ModuleDict"):
            own = []
        elif kind in T.PARAMLESS_MODULES:
            own = []
        elif kind in T.PARAM_NAMES and not children:
            own = sorted(T.PARAM_NAMES[kind])
        else:
            return None  # (a ModuleList, a module whose parameters' names are not known)
    else:
        info = interp._class_of(Val("module", ref=ref))
        if info is None or not info.is_module or _registers_by_name(interp, info):
            return None
        own = [a for a, v in attrs if v.kind == "tensor" and isinstance(v.store, tuple) and
               v.store[0] == "p"]
    out = [(prefix + n, ref) for n in own]
    for attr, child in children:
        sub = module_param_names(interp, child, f"{prefix}{attr}.", depth + 1)
        if sub is None:
            return None
        out.extend(sub)
    return out


def _registers_by_name(interp, info) -> bool:
    """Whether the class or a base registers parameters or submodules by computed names,
    or derives from a class that is not followed."""
    return any(interp.code_fact(_dynamic, c.node) for c in interp._mro(info)) or any(
        b not in interp.classes and b not in T.MODULE_BASES and b not in T.NN_CLASSES
        for c in interp._mro(info) for b in c.bases)


def _dynamic(node) -> bool:
    return bool(m.findall(node, m.Name() & m.MatchIfTrue(
        lambda n: n.value in _DYNAMIC_REGISTRATION)))


def _truth(test, bound: dict, interp) -> bool | None:
    """``test`` decided with the names ``bound`` (the parameter's name) and the known
    strings of the running code; None when it reads anything else."""
    v = _value(test, bound, interp)
    return v if isinstance(v, bool) else None


def _value(node, bound: dict, interp):
    """The Python value of a small expression over strings: a literal, a bound name, a
    name holding known strings, ``in`` / ``==`` and their negations, ``not`` / ``and`` /
    ``or``, ``s.startswith(...)`` / ``endswith``, ``s.split(".")[i]``, ``any(...)`` /
    ``all(...)`` over known strings; None when not known."""
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value if isinstance(node.evaluated_value, str) else None
    if isinstance(node, cst.Name):
        if node.value in bound:
            return bound[node.value]
        return _known(interp, node)
    if isinstance(node, (cst.Tuple, cst.List)):
        vals = [_value(e.value, bound, interp) for e in node.elements
                if isinstance(e, cst.Element)]
        return tuple(vals) if len(vals) == len(node.elements) and \
            all(isinstance(v, str) for v in vals) else None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        v = _value(node.expression, bound, interp)
        return not v if isinstance(v, bool) else None
    if isinstance(node, cst.BooleanOperation):
        left, right = _value(node.left, bound, interp), _value(node.right, bound, interp)
        is_and = isinstance(node.operator, cst.And)
        if left is (not is_and) or right is (not is_and):
            return not is_and  # (decided by one side: ``False and ?``, ``True or ?``)
        return (left and right if is_and else left or right) \
            if isinstance(left, bool) and isinstance(right, bool) else None
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        op = node.comparisons[0].operator
        left = _value(node.left, bound, interp)
        right = _value(node.comparisons[0].comparator, bound, interp)
        if not isinstance(left, str) or not isinstance(right, (str, tuple)):
            return None
        if isinstance(op, (cst.In, cst.NotIn)):
            return (left in right) == isinstance(op, cst.In)
        if isinstance(op, (cst.Equal, cst.NotEqual)):
            return (left == right) == isinstance(op, cst.Equal)
        return None
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and \
            isinstance(node.slice[0].slice, cst.Index):
        seq, idx = _value(node.value, bound, interp), node.slice[0].slice.value
        k = int(idx.value) if isinstance(idx, cst.Integer) else \
            -int(idx.expression.value) if isinstance(idx, cst.UnaryOperation) and \
            isinstance(idx.operator, cst.Minus) and isinstance(idx.expression, cst.Integer) \
            else None
        return seq[k] if isinstance(seq, list) and k is not None and -len(seq) <= k < len(seq) \
            else None
    if isinstance(node, cst.Call):
        return _call_value(node, bound, interp)
    return None


def _call_value(node: cst.Call, bound: dict, interp):
    func = node.func
    if isinstance(func, cst.Attribute) and len(node.args) == 1 and not node.args[0].keyword:
        recv = _value(func.value, bound, interp)
        arg = _value(node.args[0].value, bound, interp)
        if isinstance(recv, str) and isinstance(arg, (str, tuple)):
            if func.attr.value == "startswith":
                return recv.startswith(arg)
            if func.attr.value == "endswith":
                return recv.endswith(arg)
            if func.attr.value == "split" and isinstance(arg, str) and arg:
                return recv.split(arg)
        return None
    if isinstance(func, cst.Name) and func.value in ("any", "all") and \
            func.value not in bound and len(node.args) == 1 and \
            isinstance(node.args[0].value, cst.GeneratorExp):
        gen = node.args[0].value
        f = gen.for_in
        if f.inner_for_in is not None or f.ifs or not isinstance(f.target, cst.Name):
            return None
        seq = _value(f.iter, bound, interp)
        if not isinstance(seq, tuple):
            return None
        vals = [_value(gen.elt, {**bound, f.target.value: s}, interp) for s in seq]
        if not all(isinstance(v, bool) for v in vals):
            return None
        return any(vals) if func.value == "any" else all(vals)
    return None


def _known(interp, name: cst.Name):
    """What a name of the running code holds, when it is a known string or a few known
    strings (``no_decay = ["bias", "LayerNorm.weight"]``); else None."""
    from gradguard.analysis.python_semantics import known_strings

    key = interp.lookup_key(name.value)
    b = interp.state.env.get(key) if key is not None else None
    if b is None:
        return None
    v = b.val
    if v.kind == "scalar" and isinstance(v.ref, tuple) and v.ref[0] == "str":
        return v.ref[1]
    strings = known_strings(v)
    return tuple(s.ref[1] for s in strings) if strings is not None else None
