"""Generate server/gradguard/analysis/data/torch_ops.json from PyTorch's own metadata.

Development time only (imports torch and torchgen; the analyzer never does). Sources:

* ``torchgen/packaged/ATen/native/native_functions.yaml`` (parsed by torchgen's
  ``parse_native_yaml``): every ATen operator, its variants (``torch.X`` function,
  ``Tensor.X`` method), its in-place (``X_``) and out variants, alias annotations (views),
  return types, and whether it is CompositeImplicitAutograd (decomposes into other ops).
* ``torchgen/packaged/autograd/derivatives.yaml`` (torchgen's ``load_derivatives`` and
  ``match_differentiability_info``, the pipeline that generates the autograd nodes): which
  inputs and outputs each backward formula saves, ``non_differentiable`` arguments and
  ``output_differentiability``; ``gen_variable_type.DONT_REQUIRE_DERIVATIVE``.
* For CompositeImplicitAutograd operators and ``torch.nn.functional`` (no formula of their
  own), a probe: the operator is called once on a small tensor that requires grad and the
  autograd nodes it recorded are read (``grad_fn._saved_*``), which is what they save.
* ``torch.nn`` module classes, ``torch.optim`` optimizer classes: introspected (signature,
  forward source, one instantiation and call for the recurrent ones).
* ``torch.nn.utils`` (and its ``parametrizations``) functions that hand back the module
  they are given (``weight_norm``, ``spectral_norm``...): each called on an ``nn.Linear``.
* ``dir(torch.Tensor)``: the methods of ``dict`` and ``list`` a tensor does not have;
  ``torch._tensor_classes``: the legacy constructors (``torch.FloatTensor``...).

Usage: ``python scripts/gen_torch_tables.py`` (writes the file), ``--check`` (exit 1 if
the shipped file differs). tests/test_torch_tables.py regenerates it in memory.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import os
import sys
import textwrap
import warnings
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "server/gradguard/analysis/data/torch_ops.json"

# torch.* functions implemented in Python or in torch/csrc (not in native_functions.yaml)
# that make a tensor from no tensor (torch/csrc/utils/tensor_new.cpp, torch/functional.py).
PY_FACTORIES = ("tensor", "as_tensor", "asarray", "from_numpy", "frombuffer", "from_file",
                "sparse_coo_tensor", "sparse_csr_tensor", "range")


def _load():
    import torchgen
    from torchgen.api.autograd import match_differentiability_info
    from torchgen.gen import parse_native_yaml
    from torchgen.packaged.autograd.gen_variable_type import DONT_REQUIRE_DERIVATIVE
    from torchgen.packaged.autograd.load_derivatives import load_derivatives

    root = Path(torchgen.__file__).parent / "packaged"
    nf = str(root / "ATen/native/native_functions.yaml")
    tags = str(root / "ATen/native/tags.yaml")
    funcs = parse_native_yaml(nf, tags).native_functions
    infos, _ = load_derivatives(str(root / "autograd/derivatives.yaml"), nf, tags)
    matched = match_differentiability_info(funcs, infos)
    return matched, DONT_REQUIRE_DERIVATIVE


def _is_tensor(t) -> bool:
    return t.is_tensor_like()


def _saves_tensor(ctype) -> bool:
    """A saved variable that holds tensor data (not TensorOptions / TensorGeometry)."""
    s = str(ctype)
    return "name='Tensor')" in s or "name='TensorList')" in s


def _overload(fi, dont_require) -> dict:
    """What one native function (one overload) says."""
    from torchgen.model import Variant

    f = fi.func
    s = f.func
    base = s.name.name.base
    args = list(s.schema_order_arguments())
    arg_names = {a.name for a in args}
    tensor_in = any(_is_tensor(a.type) for a in args if a not in s.arguments.out)
    rets = s.returns
    tensor_rets = [_is_tensor(r.type) for r in rets]
    info = (fi.info or {}).get("Default")
    # a return named ``indices`` is an int64 tensor (max.dim, kthvalue, mode, cummax...:
    # native_functions.yaml's convention); integer tensors never require grad, whatever
    # derivatives.yaml's output_differentiability says
    saves, out_diff = set(), [t and r.name != "indices" for t, r in zip(tensor_rets, rets)]
    if info is not None:
        for sv in info.all_saved_inputs:
            if not _saves_tensor(sv.nctype.type):
                continue
            nm = sv.nctype.name
            nm = str(nm) if not isinstance(nm, str) else nm
            saves.add(nm.rstrip("_") if nm.rstrip("_") in arg_names else
                      ("derived" if not nm.endswith("_") else nm.rstrip("_")))
        if info.output_differentiability is not None:
            od = list(info.output_differentiability)
            out_diff = [a and b for a, b in zip(out_diff, od + [True] * len(out_diff))]
        if not info.args_with_derivatives:
            out_diff = [False] * len(rets)
        # an output that never carries a graph (sort's indices) is saved as a plain
        # tensor: the values, and the input, may change after the op
        no_graph = {str(r.name) for r, d in zip(rets, out_diff) if r.name and not d}
        for sv in info.all_saved_outputs:
            if _saves_tensor(sv.nctype.type):
                nm = str(sv.nctype.name).rstrip("_")
                saves.add("result" if nm in ("result", "result0") and len(rets) == 1 else
                          "nograd_output" if nm in no_graph else nm)
        diff = "formula" if any(out_diff) else "none"
    elif base in dont_require or str(s.name.name) in dont_require or not any(tensor_rets):
        diff, out_diff = "none", [False] * len(rets)
    elif not tensor_in:
        diff, out_diff = "none", [False] * len(rets)
    elif f.has_composite_implicit_autograd_kernel:
        diff = "composite"
    else:
        diff = "unimplemented"  # autograd raises "derivative not implemented"
    if diff in ("none",):
        saves = set()
    return {
        "name": str(s.name.name),
        "base": base,
        "inplace": s.name.name.inplace,
        "out": s.is_out_fn(),
        "function": Variant.function in f.variants,
        "method": Variant.method in f.variants,
        "module": f.python_module,
        "view": f.is_view_op and not s.name.name.inplace and not s.is_out_fn(),
        # returns tensors with no alias annotation: new storages, never the input's
        "fresh": bool(rets) and all(str(r.type) == "Tensor" and r.annotation is None
                                    for r in rets),
        "diff": diff,
        "saves": saves,
        "inputs": {a.name for a in args if _is_tensor(a.type)},
        "out_diff": out_diff,
        "ret_names": [str(r.name) if r.name else "" for r in rets],
        "factory": (not tensor_in and any(tensor_rets) and not s.is_out_fn()),
        # a probe calls op(tensor, ...) or op([tensor, tensor]): only for ops taking that
        "probe": bool(s.arguments.flat_positional) and
        str(s.arguments.flat_positional[0].type) in ("Tensor", "Tensor[]"),
    }


def _merge(rows: list[dict]) -> dict:
    """One entry per user-visible name from its overloads."""
    e: dict = {}
    if any(r["function"] and r["module"] is None for r in rows):
        e["fn"] = 1
    if any(r["method"] for r in rows):
        e["method"] = 1
    mods = sorted({r["module"] for r in rows if r["module"]})
    if mods:
        e["module"] = mods
    diffs = sorted({r["diff"] for r in rows})
    e["diff"] = diffs[0] if len(diffs) == 1 else diffs
    saves = set()
    for r in rows:
        for x in r["saves"]:
            saves.add("result" if x == "result" else
                      x if x in r["inputs"] or x in ("derived", "nograd_output") else "output")
    # what each overload saves, simplified: input names, "result"/"output", "derived",
    # "nograd_output" (an output that never carries a graph)
    e["saves"] = sorted(saves)
    if all(r["diff"] == "formula" and "result" in r["saves"] for r in rows):
        # every overload's backward needs the result (norm, prod; not pow, whose
        # Tensor_Scalar overload saves only its input)
        e["result_saved"] = 1
    if any(r["view"] for r in rows):
        e["view"] = 1
    if all(r["fresh"] for r in rows):
        e["fresh"] = 1
    # output positions that never carry a graph in any overload that has them
    width = max(len(r["out_diff"]) for r in rows)
    nograd = []
    for i in range(width):
        have = [r["out_diff"][i] for r in rows if len(r["out_diff"]) > i]
        if have and not any(have):
            nograd.append(i)
    if nograd:
        e["nograd"] = nograd
        # how many outputs its overloads return (``max``: [1, 2], ``sort``: [2]), and
        # the names of the widest's (``torch.return_types.max``: values, indices)
        e["returns"] = sorted({len(r["out_diff"]) for r in rows})
        names = {tuple(r["ret_names"]) for r in rows if len(r["out_diff"]) == width}
        if len(names) == 1 and all(next(iter(names))):
            e["fields"] = list(next(iter(names)))
    if all(r["factory"] for r in rows):
        e["factory"] = 1
    return e


def _ops(matched, dont_require) -> dict:
    by_name: dict[str, list] = {}
    outs: set[str] = set()
    for fi in matched:
        if fi.func.namespace != "aten":
            continue
        if any("Dimname" in str(a.type) for a in fi.func.func.schema_order_arguments()):
            # named-tensor overloads (a prototype API) decompose into the positional ones
            continue
        r = _overload(fi, dont_require)
        if r["out"]:
            outs.add(r["base"])
            continue
        if r["name"].startswith("_"):
            # private ops and dunders (torch._softmax, Tensor.__and__): not what a user
            # writes (what a composite saves comes from its probe, not from them)
            continue
        by_name.setdefault(r["name"], []).append(r)
    ops = {name: _merge(rows) for name, rows in by_name.items()}
    for name, rows in by_name.items():
        if any(r["probe"] for r in rows if r["diff"] in ("composite", "unimplemented")):
            ops[name]["_probe"] = True
    for name, e in ops.items():
        if not name.endswith("_") and name + "_" in ops:
            e["inplace"] = name + "_"
            ops[name + "_"]["of"] = name
        if name in outs:
            e["out"] = 1
    return ops


# --------------------------------------------------------------------- probing
def _probe_args(torch):
    x = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
    y = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
    return x, y, [(), (0,), (-1,), (1,), (y,), (0, 1), (0, 0, 2), ((20,),), ((5, 4),)]


# second round, on a 0-dim tensor (linspace(start, end, steps), randint_like(t, high))
_SCALAR_TRIES = [(1.0, 5), (3,)]
# last round, on an image batch (N, C, H, W): interpolate(x, None, 2), pixel_shuffle(x, 2)...
_IMAGE_TRIES = [(), (None, 2), (2,), ((3, 3),)]


def _saved_of(node):
    for a in sorted(dir(node)):
        if a.startswith("_saved_"):
            try:
                v = getattr(node, a)
            except Exception:  # noqa: BLE001 - freed or not a tensor
                continue
            vs = v if isinstance(v, (tuple, list)) else (v,)
            for t in vs:
                if hasattr(t, "data_ptr") and hasattr(t, "shape"):
                    yield a[len("_saved_"):], t


def _probe(torch, fn, kind: str):
    """Call ``fn`` on a small tensor that requires grad; what its autograd nodes saved:
    ``(saves, carries_graph)`` or None when no tried argument list fits."""
    torch.manual_seed(0)
    x, other, tries = _probe_args(torch)
    x0 = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
    x4 = torch.randn(1, 2, 4, 6, dtype=torch.float64, requires_grad=True)
    rounds = [(x, e) for e in [None] + tries] + [(x0, e) for e in _SCALAR_TRIES] + \
        [(x4, e) for e in _IMAGE_TRIES]
    for first, extra in rounds:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                # a sequence of tensors first (cat, stack, hstack...), then one tensor
                out = fn([x, other]) if extra is None else fn(first, *extra)
        except Exception:  # noqa: BLE001 - try the next argument list
            continue
        outs = out if isinstance(out, (tuple, list)) else (out,)
        tens = [o for o in outs if isinstance(o, torch.Tensor)]
        if not tens:
            return None
        saves, seen, todo = set(), set(), [o.grad_fn for o in tens if o.grad_fn is not None]
        inputs = [x, other, x0, x4]

        def same(t, u):
            return (t.data_ptr() == u.data_ptr() and tuple(t.shape) == tuple(u.shape) and
                    t.stride() == u.stride())

        while todo:
            node = todo.pop()
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            for nm, t in _saved_of(node):
                if any(same(t, o) for o in tens):
                    saves.add("result")
                elif any(same(t, i) for i in inputs):
                    saves.add("tensors" if extra is None else "other" if same(t, other)
                              else "self")
                elif t.dtype.is_floating_point or t.dtype.is_complex:
                    saves.add("derived")
                else:
                    saves.add("derived")
            todo.extend(n for n, _ in node.next_functions)
        nograd = [i for i, o in enumerate(outs) if not (isinstance(o, torch.Tensor) and
                                                         o.requires_grad)]
        found = {"saves": sorted(saves), "nograd": nograd,
                 "graph": int(any(o.requires_grad for o in tens)),
                 "args": "list" if extra is None else len(extra)}
        if extra is not None and any(e is other for e in extra) and \
                not _graph_from_other(torch, fn, first, extra, other):
            # ``x.type_as(y)``, ``x.view_as(y)``: ``y`` gives a dtype or a shape, no graph
            found["other_nograd"] = 1
        return found
    return None


def _graph_from_other(torch, fn, first, extra, other) -> bool:
    """Whether ``fn(first, *extra)`` carries a graph when only ``other`` (a tensor among
    ``extra``) requires grad."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = fn(first.detach(), *extra)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return any(isinstance(o, torch.Tensor) and o.requires_grad for o in outs)


def _probe_composites(torch, ops: dict) -> None:
    for name in sorted(ops):
        e = ops[name]
        if not e.pop("_probe", False) or name.endswith("_"):
            continue
        fn = getattr(torch, name, None) if e.get("fn") else None
        if fn is None and e.get("method"):
            fn = getattr(torch.Tensor, name, None)
        if fn is None:
            continue
        p = _probe(torch, fn, "op")
        if p is not None:
            e["probe"] = p


# ----------------------------------------------------------------- functional
_NOT_OPS = {"has_torch_function", "has_torch_function_unary", "has_torch_function_variadic",
            "handle_torch_function", "_get_softmax_dim", "_verify_batch_size", "warn",
            "_canonical_mask", "_none_or_dtype", "is_scripting", "_add_docstr",
            "_list_with_default", "_overload", "boolean_dispatch", "isinstance", "len",
            "_pair", "_single", "_triple", "ValueError", "RuntimeError", "TypeError",
            "_unwrap_optional", "is_grad_enabled", "list", "tuple", "dim", "size", "format",
            "_infer_size", "_verify_spatial_size", "float", "int", "range", "type",
            "_enum_to_int", "_is_integer", "get_enum", "enumerate", "zip", "any", "all"}


# torch.nn.functional's own helpers (dispatch and argument checking), not operations
_HELPERS = {"boolean_dispatch", "handle_torch_function", "has_torch_function",
            "has_torch_function_unary", "has_torch_function_variadic", "assert_int_or_pair"}


def _functional(torch, ops: dict) -> dict:
    F = torch.nn.functional
    out = {}
    for name in sorted(dir(F)):
        obj = getattr(F, name)
        if name.startswith("_") or inspect.isclass(obj) or inspect.ismodule(obj) or \
                not callable(obj) or name in _HELPERS:
            continue
        mod = getattr(obj, "__module__", None) or ""
        if not (mod.startswith("torch") or type(obj).__name__ == "builtin_function_or_method"):
            continue
        e: dict = {}
        try:
            src = textwrap.dedent(inspect.getsource(obj))
        except (TypeError, OSError):
            src = None
        if src is None:
            aten = getattr(obj, "__name__", name)
            if aten in ops:
                e["aten"] = aten
        else:
            calls = set()
            for node in ast.walk(ast.parse(src)):
                if isinstance(node, ast.Call):
                    f = node.func
                    nm = f.attr if isinstance(f, ast.Attribute) else \
                        f.id if isinstance(f, ast.Name) else None
                    if nm and nm not in _NOT_OPS and nm not in dir(F) or nm == name:
                        calls.add(nm)
            # F.relu calls torch.relu_ or torch.relu: the functional one names the op
            calls -= {c for c in calls if c.endswith("_") and c[:-1] in calls}
            aten = [c for c in sorted(calls) if c in ops]
            arith = any(isinstance(n, ast.BinOp) for n in ast.walk(ast.parse(src)))
            if len(aten) == 1 and len(calls - set(aten)) == 0 and not arith:
                e["aten"] = aten[0]
            else:
                e["composite"] = 1
            try:
                if "inplace" in inspect.signature(obj).parameters:
                    e["inplace_arg"] = 1
            except (TypeError, ValueError):
                pass
        p = _probe(torch, obj, "functional")
        if p is not None:
            e["probe"] = p
        out[name] = e
    return out


# ------------------------------------------------------------------ nn modules
def _modules(torch) -> dict:
    nn = torch.nn
    out = {}
    for name in sorted(dir(nn)):
        cls = getattr(nn, name)
        if not (inspect.isclass(cls) and issubclass(cls, nn.Module)) or name.startswith("_"):
            continue
        e: dict = {}
        try:
            params = inspect.signature(cls.__init__).parameters
        except (TypeError, ValueError):
            params = {}
        if "inplace" in params:
            e["inplace"] = 1
        fs = _forward_functionals(cls)
        if fs:
            e["functional"] = fs
        if issubclass(cls, (nn.RNNBase, nn.RNNCellBase)) and cls not in (nn.RNNBase,
                                                                          nn.RNNCellBase):
            m = cls(3, 2)
            res = m(torch.randn(4, 1, 3) if issubclass(cls, nn.RNNBase) else torch.randn(1, 3))

            def shape(v):
                return [shape(x) for x in v] if isinstance(v, tuple) else "tensor"
            e["recurrent"] = "module" if issubclass(cls, nn.RNNBase) else "cell"
            e["returns"] = shape(res)
        has = _has_params(torch, cls, params) if "recurrent" not in e else \
            int(any(True for _ in m.parameters()))
        if has is not None:
            e["params"] = has
        if has == 0 and "recurrent" not in e and _never_has_params(cls, params):
            e["paramless"] = 1
        if has and _bool_flips_keep_params(cls, params):
            e["always_params"] = 1
        if has and "recurrent" not in e:
            names = _param_names(cls, params)
            if names:
                e["param_names"] = names
        if has:
            kept = _params_saved(torch, cls, params, "recurrent" in e)
            if kept is not None:
                e["saves_params"] = kept
        changed_by = _params_changed_by(torch, cls, params) if has else None
        if changed_by:
            e["changes_params_with"] = changed_by
        saves = _saves(torch, cls, params, "recurrent" in e)
        if saves is not None:
            e["saves"] = saves
        # the other public torch.nn classes it is an instance of (isinstance(m, nn.X))
        bases = sorted(b for b in dir(nn) if b not in (name, "Module") and
                       not b.startswith("_") and inspect.isclass(getattr(nn, b)) and
                       issubclass(cls, getattr(nn, b)))
        if bases:
            e["bases"] = bases
        out[name] = e
    return out


# Modules the default build (2 for each required argument) cannot make, or cannot call
# on the probe inputs: built here with the smallest arguments that fit them.
_PROBE_BUILDS = {
    "Unflatten": lambda nn: nn.Unflatten(1, (2, 1)),
    "PixelShuffle": lambda nn: nn.PixelShuffle(1),
    "PixelUnshuffle": lambda nn: nn.PixelUnshuffle(1),
    "Upsample": lambda nn: nn.Upsample(scale_factor=2),
    "UpsamplingNearest2d": lambda nn: nn.UpsamplingNearest2d(scale_factor=2),
    "UpsamplingBilinear2d": lambda nn: nn.UpsamplingBilinear2d(scale_factor=2),
    "TransformerEncoder": lambda nn: nn.TransformerEncoder(
        nn.TransformerEncoderLayer(2, 2, dim_feedforward=4), 1, enable_nested_tensor=False),
    "TransformerDecoder": lambda nn: nn.TransformerDecoder(
        nn.TransformerDecoderLayer(2, 2, dim_feedforward=4), 1),
    "Transformer": lambda nn: nn.Transformer(2, 2, 1, 1, dim_feedforward=4),
}


def _saves(torch, cls, params, recurrent: bool) -> str | None:
    """What a module's forward (in training mode) saves for its backward, of the tensors
    the program holds: ``input`` (changing the input in place after the call makes the
    backward raise "modified by an inplace operation"), else ``output`` (changing the
    result does), ``alias`` (the result shares the input's storage: Identity, Flatten),
    ``mask`` (neither, but a second backward raises "backward through the graph a second
    time": a dropout mask, the parameters), ``none`` (nothing: padding). Probed on each
    input of :data:`_MODULE_INPUTS` with one, two and three arguments (a decoder takes
    ``tgt, memory``, attention ``query, key, value``) until one fits; None when none does
    and for containers of other modules."""
    nn = torch.nn
    if issubclass(cls, (nn.Sequential, nn.ModuleList, nn.ModuleDict, nn.ParameterList,
                        nn.ParameterDict)) or cls.__name__ == "Container":
        return None

    def build():
        make = _PROBE_BUILDS.get(cls.__name__)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return make(nn) if make else _build(cls, params, recurrent)

    def run(shape, arity, change):
        """True/False: whether the backward raised after the change; None: no fit."""
        torch.manual_seed(0)
        m = build()
        if m is None:
            return None
        m.train()
        if shape == "indices":
            h = torch.tensor([0, 1, 1])
        else:
            h = torch.randn(*shape, requires_grad=True).clone()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = m(*[h] * arity)
        except Exception:  # noqa: BLE001 - try the next input
            return None
        while isinstance(out, (tuple, list)):
            out = out[0]
        if not isinstance(out, torch.Tensor) or not out.requires_grad:
            return None
        if change == "alias":
            return out.untyped_storage().data_ptr() == h.untyped_storage().data_ptr()
        if change != "twice":
            with torch.no_grad():
                (h if change == "input" else out).add_(0)
        try:
            out.float().sum().backward()
            if change == "twice":
                out.float().sum().backward()
        except RuntimeError as err:
            if "inplace operation" in str(err) or "second time" in str(err):
                return True
            return None
        return False

    for shape in _MODULE_INPUTS:
        for arity in (1, 2, 3):
            if run(shape, arity, "alias") is None:
                continue
            if run(shape, arity, "alias"):
                return "alias"
            for change in ("input", "output", "twice"):
                if run(shape, arity, change):
                    return {"twice": "mask"}.get(change, change)
            return "none"
    return None


# inputs tried, in order, for a module's forward: a batch of features, of sequences,
# of images, of volumes, and (for embeddings, without grad) of indices
_MODULE_INPUTS = [(3, 2), (3, 2, 5), (1, 2, 5, 5), (1, 2, 5, 5, 5), "indices"]


def _params_changed_by(torch, cls, params) -> list | None:
    """The options (default None, given a number here) with which the module's forward
    changes its own parameters in place (``Embedding(max_norm=1.0)`` renormalises the rows
    it looks up: ``embedding_renorm_``). Probed: a parameter's version counter after one
    forward on the first input that fits."""
    rest = list(params.values())[1:]
    required = [p for p in rest if p.default is p.empty]
    if any(p.kind in (p.KEYWORD_ONLY, p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in required):
        return None
    found = []
    for opt in (p for p in rest if p.default is None and p.kind == p.POSITIONAL_OR_KEYWORD):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m = cls(*[2] * len(required), **{opt.name: 1.0})
        except Exception:  # noqa: BLE001 - not a number option
            continue
        for shape in _MODULE_INPUTS:
            x = torch.tensor([0, 1, 1]) if shape == "indices" else torch.randn(*shape) * 10
            before = [p._version for p in m.parameters()]
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    m(x)
            except Exception:  # noqa: BLE001 - try the next input
                continue
            if [p._version for p in m.parameters()] != before:
                found.append(opt.name)
            break
    return found or None


def _params_saved(torch, cls, params, recurrent: bool) -> str | None:
    """Whether a module's call saves its parameters for backward: ``always``, only when
    an input requires grad (``grad_input``: addmm saves ``mat2``, the weight, only for
    ``mat1``'s gradient; a network's first Linear on data does not), or ``never``
    (embedding saves its indices). Probed: the parameters are changed in place after the
    forward, as ``optimizer.step()`` does, and the backward raises "modified by an inplace
    operation" or not. None when no input fits."""
    def one(requires_grad: bool):
        for shape in _MODULE_INPUTS:
            if shape == "indices" and requires_grad:
                continue
            m = _build(cls, params, recurrent)
            if m is None:
                return None
            x = torch.tensor([0, 1, 1]) if shape == "indices" else \
                torch.randn(*shape, requires_grad=requires_grad)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    out = m(x)
            except Exception:  # noqa: BLE001 - try the next input
                continue
            while isinstance(out, (tuple, list)):
                out = out[0]
            if not isinstance(out, torch.Tensor) or not out.requires_grad:
                continue
            with torch.no_grad():
                for p in m.parameters():
                    p.add_(0)
            try:
                out.float().sum().backward()
            except RuntimeError as err:
                if "inplace operation" in str(err):
                    return True
                continue
            return False
        return None
    without, with_grad = one(False), one(True)
    if without is None and with_grad is None:
        return None
    if without:
        return "always"
    return "grad_input" if with_grad else "never"


def _build(torch_cls, params, recurrent: bool):
    """An instance built with 2 for each required argument (recurrent modules: input and
    hidden size 2), or None."""
    required = [p for p in list(params.values())[1:]
                if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if any(p.kind == p.KEYWORD_ONLY for p in required):
        return None
    args = [2, 2] if recurrent else [2] * len(required)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return torch_cls(*args)
    except Exception:  # noqa: BLE001
        return None


def _forward_functionals(cls) -> list:
    """The ``F.xxx`` calls of ``cls.forward`` and of the ``self._helper()`` methods it
    calls (Conv2d.forward -> self._conv_forward -> F.conv2d)."""
    found, seen, todo = set(), set(), ["forward"]
    while todo:
        meth = getattr(cls, todo.pop(), None)
        if meth is None or meth in seen:
            continue
        seen.add(meth)
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(meth)))
        except (TypeError, OSError, SyntaxError):
            continue
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                    isinstance(n.func.value, ast.Name):
                if n.func.value.id == "F":
                    found.add(n.func.attr)
                elif n.func.value.id == "self":
                    todo.append(n.func.attr)
    return sorted(found)


def _has_params(torch, cls, params):
    """Whether an instance built with the defaults has parameters (required arguments
    get 2), or None when it cannot be built that way."""
    m = _build(cls, params, recurrent=False)
    return None if m is None else int(any(True for _ in m.parameters()))


def _never_has_params(cls, params) -> bool:
    """Whether no way of building the module gives it parameters: it takes no other
    modules or tensors (no ``*args``/``**kwargs``, no argument defaulting to None, as
    ``Sequential(*modules)``, ``ModuleList(modules=None)``, ``weight=None`` do), and
    flipping each of its bool options (``InstanceNorm2d(affine=True)``) adds none."""
    import torch
    rest = [] if cls.__init__ is torch.nn.Module.__init__ else list(params.values())[1:]

    def may_hold_weights(p) -> bool:
        # ``stride: Optional[int] = None`` holds no tensor; ``weight: Optional[Tensor] =
        # None``, ``modules: Optional[Iterable[Module]] = None`` and unannotated ones may
        note = str(p.annotation) if p.annotation is not p.empty else ""
        return not note or any(w in note for w in (
            "Tensor", "Module", "Parameter", "Any", "Iterable", "Mapping", "dict", "Dict", "~"))
    # the deprecated ``size_average=None, reduce=None`` of every loss (torch.nn.modules.loss
    # _Loss.__init__, documented as bool options)
    loss_flags = ("size_average", "reduce") if issubclass(cls, torch.nn.modules.loss._Loss) \
        else ()

    def tensor_option(p) -> bool:
        # ``weight: Optional[Tensor] = None`` of a loss: a tensor option only
        note = str(p.annotation) if p.annotation is not p.empty else ""
        return p.default is None and "Tensor" in note and not any(w in note for w in (
            "Module", "Parameter", "Any", "Iterable", "Mapping", "dict", "Dict", "~"))

    if cls is torch.nn.Module or any(
            p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or
            ((p.default is None or p.default is p.empty) and may_hold_weights(p) and
             not tensor_option(p) and p.name not in loss_flags)
            for p in rest):
        return False
    for p in rest:
        if tensor_option(p):
            # given a tensor there (``CrossEntropyLoss(weight=w)``), does it hold it as a
            # parameter? (a loss registers it as a buffer)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    m = cls(**{p.name: torch.ones(3)})
            except Exception:  # noqa: BLE001 (a shape it rejects: not known, say no)
                return False
            if any(True for _ in m.parameters()):
                return False
    flipped = _flipped_param_counts(cls, rest)
    return flipped is not None and not any(flipped)


def _param_names(cls, params) -> list | None:
    """The names ``named_parameters()`` gives the module's own parameters (``weight``,
    ``bias``), over the build with the defaults (required arguments get 2) and each build
    with one bool option flipped (``MultiheadAttention(add_bias_kv=True)`` adds
    ``bias_k``); None when one of them cannot be built so, or has submodules (their
    parameters' names are not the module's own)."""
    rest = list(params.values())[1:]
    required = [p for p in rest if p.default is p.empty]
    if any(p.kind in (p.KEYWORD_ONLY, p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in required):
        return None
    names: set = set()
    for flip in [None] + [p for p in rest if isinstance(p.default, bool)]:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m = cls(*[2] * len(required),
                        **({flip.name: not flip.default} if flip is not None else {}))
        except Exception:  # noqa: BLE001 - that option needs others
            return None
        if any(True for _ in m.children()):
            return None
        names |= {n for n, _ in m.named_parameters(recurse=False)}
    return sorted(names)


def _bool_flips_keep_params(cls, params) -> bool:
    """Whether the module (which has parameters built with its defaults) still has some
    with each of its bool options flipped (``Linear(bias=False)`` keeps its weight,
    ``LayerNorm(elementwise_affine=False)`` has none)."""
    flipped = _flipped_param_counts(cls, list(params.values())[1:])
    return flipped is not None and all(flipped)


def _flipped_param_counts(cls, rest) -> list | None:
    """For each bool option of the module's constructor (``rest``: its parameters after
    self), whether the module built with that option flipped (required arguments get 2)
    has parameters; None when one of them cannot be built so."""
    required = [p for p in rest if p.default is p.empty]
    if any(p.kind == p.KEYWORD_ONLY for p in required):
        return None
    out = []
    for p in rest:
        if isinstance(p.default, bool):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    m = cls(*[2] * len(required), **{p.name: not p.default})
            except Exception:  # noqa: BLE001 - that option needs others
                return None
            out.append(any(True for _ in m.parameters()))
    return out


def _optimizers(torch) -> list:
    return sorted(n for n in dir(torch.optim) if inspect.isclass(getattr(torch.optim, n))
                  and issubclass(getattr(torch.optim, n), torch.optim.Optimizer))


def _module_wrappers(torch) -> list:
    """The functions of ``torch.nn.utils`` and ``torch.nn.utils.parametrizations`` whose
    first parameter is ``module`` and that return that very module (an ``nn.Linear``
    given to each; functions that refuse it are not such)."""
    import importlib
    out = []
    for modname in ("torch.nn.utils", "torch.nn.utils.parametrizations"):
        mod = importlib.import_module(modname)
        for name in sorted(dir(mod)):
            fn = getattr(mod, name)
            if name.startswith("_") or not inspect.isfunction(fn):
                continue
            params = list(inspect.signature(fn).parameters)
            if not params or params[0] != "module":
                continue
            given = torch.nn.Linear(2, 2)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    returned = fn(given)
            except Exception:  # noqa: BLE001 - not a function of a module alone
                continue
            if returned is given:
                out.append(f"{modname}.{name}")
    return out


def _module_scalars(torch) -> list:
    """The attributes every ``nn.Module`` instance has that hold a Python bool, number or
    string (``training``), from ``vars()`` of a bare ``nn.Module()``: never a submodule
    or a tensor."""
    return sorted(k for k, v in vars(torch.nn.Module()).items()
                  if isinstance(v, (bool, int, float, str)))


def _container_methods(torch) -> list:
    """The public methods of ``dict`` and ``list`` that ``torch.Tensor`` does not have
    (``pop``, ``keys``, ``items``...): a value of unknown structure (a model's output) on
    which code calls one is no tensor."""
    return sorted(n for n in set(dir(dict)) | set(dir(list))
                  if not n.startswith("_") and not hasattr(torch.Tensor, n))


def _legacy_constructors(torch) -> list:
    """``torch.Tensor`` and the legacy typed constructors (``torch.FloatTensor``...,
    ``torch._tensor_classes``): given a tensor they return an alias of it (its graph
    kept), given a sequence a new tensor of its values (torch/csrc/utils/tensor_new.cpp)."""
    return sorted(n for n in dir(torch) if not n.startswith("_") and (
        getattr(torch, n) is torch.Tensor or getattr(torch, n) in torch._tensor_classes))


def generate() -> dict:
    import torch
    matched, dont_require = _load()
    ops = _ops(matched, dont_require)
    _probe_composites(torch, ops)
    factories = sorted({n for n, e in ops.items() if e.get("factory") and e.get("fn")} |
                       {n for n in PY_FACTORIES if hasattr(torch, n)})
    return {
        "header": {"torch": torch.__version__.split("+")[0],
                   "note": "generated by scripts/gen_torch_tables.py, do not edit"},
        "container_methods": _container_methods(torch),
        "factories": factories,
        "functional": _functional(torch, ops),
        "legacy_constructors": _legacy_constructors(torch),
        "modules": _modules(torch),
        "module_scalars": _module_scalars(torch),
        "module_wrappers": _module_wrappers(torch),
        "ops": ops,
        "optimizers": _optimizers(torch),
    }


def dump(data: dict) -> str:
    """Sorted, one entry per line under each table (small diffs on a torch upgrade)."""
    lines = ["{", f'"header": {json.dumps(data["header"], sort_keys=True)},']
    keys = sorted(k for k in data if k != "header")
    for i, k in enumerate(keys):
        v = data[k]
        end = "," if i < len(keys) - 1 else ""
        if isinstance(v, dict) and k != "header":
            lines.append(f"{json.dumps(k)}: {{")
            items = sorted(v)
            for j, name in enumerate(items):
                sep = "," if j < len(items) - 1 else ""
                lines.append(f"{json.dumps(name)}: "
                             f"{json.dumps(v[name], sort_keys=True, separators=(',', ':'))}{sep}")
            lines.append("}" + end)
        else:
            lines.append(f"{json.dumps(k)}: "
                         f"{json.dumps(v, sort_keys=True, separators=(',', ':'))}{end}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped file")
    ap.add_argument("-o", "--output", type=Path, default=OUT)
    ns = ap.parse_args(argv)
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    text = dump(generate())
    if ns.check:
        same = ns.output.exists() and ns.output.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{ns.output} differs; run {sys.argv[0]}")
        return 0 if same else 1
    ns.output.parent.mkdir(parents=True, exist_ok=True)
    ns.output.write_text(text, encoding="utf-8")
    print(f"wrote {ns.output} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
