"""The shipped PyTorch table (server/gradguard/analysis/data/torch_ops.json): up to date
with the installed torch, real entries, and the analyzer never importing torch."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "server/gradguard/analysis/data/torch_ops.json"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_torch_tables",
                                                  ROOT / "scripts/gen_torch_tables.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_shipped_table_is_what_the_generator_makes():
    pytest.importorskip("torch")
    pytest.importorskip("torchgen")
    gen = _generator()
    text = gen.dump(gen.generate())
    shipped = SHIPPED.read_text(encoding="utf-8")
    if text != shipped:
        new, old = text.splitlines(), shipped.splitlines()
        diff = [f"- {a}\n+ {b}" for a, b in zip(old, new) if a != b][:10]
        pytest.fail("torch_ops.json is stale: run scripts/gen_torch_tables.py\n" +
                    "\n".join(diff) + f"\n({len(old)} vs {len(new)} lines)")


def test_header_names_torch_and_the_generator():
    from gradguard.analysis import torchdb
    head = torchdb.data()["header"]
    assert head["torch"].count(".") == 2
    assert "gen_torch_tables.py" in head["note"] and "do not edit" in head["note"]


def test_saved_tensors():
    from gradguard.analysis import torchdb as db
    assert db.op_saved("sigmoid") == {"result"}
    assert db.saving_kind(db.op_saved("sigmoid")) == "output"
    assert {"self", "other"} <= db.op_saved("mul")
    assert db.op_saved("add") == frozenset() and db.op_saved("sum") == frozenset()
    assert db.op_saved("view") == frozenset() and db.op_saved("neg") == frozenset()
    # elu saves its input; its in-place variant its result (derivatives.yaml)
    assert db.op_saved("elu") == {"self"} and db.op_saved("elu_") == {"result"}
    # softmax is CompositeImplicitAutograd: its probed call recorded SoftmaxBackward0
    assert db.op("softmax")["diff"] == "composite"
    assert db.op_saved("softmax") == {"result"}
    assert db.functional_saved("relu") == {"result"}
    # sort and topk keep only their indices, which carry no graph: their input and
    # values may change in place after them; max.dim keeps its input too
    assert db.op_saved("sort") == {"nograd_output"} and db.op_saved("topk") == {"nograd_output"}
    assert db.saving_kind(db.op_saved("sort")) is False
    assert db.saving_kind(db.op_saved("max")) is True


def test_outputs_without_graph():
    from gradguard.analysis import torchdb as db
    assert db.nograd_outputs("max") == (1,)  # max.dim's indices
    assert db.nograd_outputs("sort") == (1,) and db.nograd_outputs("topk") == (1,)
    for name in ("argmax", "eq", "lt", "isnan", "nonzero", "zeros_like"):
        assert db.carries_graph(name) is False, name
    for name in ("add", "sign", "bernoulli", "reshape"):
        assert db.carries_graph(name) is True, name


def test_variants_and_views():
    from gradguard.analysis import torchdb as db
    assert db.inplace_variant("add") == "add_" and db.inplace_of("add_") == "add"
    assert db.has_out("add") and db.is_method("add") and db.is_function("add")
    assert db.is_view("view") and db.is_view("transpose") and not db.is_view("add")
    assert not db.is_function("view")  # Tensor.view only


def test_modules_optimizers_factories():
    from gradguard.analysis import torchdb as db
    lstm = db.module("LSTM")
    assert lstm["recurrent"] == "module" and lstm["returns"] == ["tensor", ["tensor", "tensor"]]
    assert db.module("GRU")["returns"] == ["tensor", "tensor"]
    assert db.module("LSTMCell")["returns"] == ["tensor", "tensor"]
    assert db.module("GRUCell")["returns"] == "tensor"
    assert db.module("ReLU")["inplace"] == 1 and "inplace" not in db.module("Linear")
    assert db.module("ReLU")["functional"] == ["relu"] and db.module("Linear")["params"] == 1
    assert db.module("ReLU")["params"] == 0
    # what a forward saves, probed by changing the input or the result in place
    assert {n: db.module(n)["saves"] for n in (
        "Linear", "TransformerEncoder", "MultiheadAttention", "ReLU", "Softmax", "Dropout",
        "ZeroPad2d", "Flatten", "Embedding")} == {
        "Linear": "input", "TransformerEncoder": "input", "MultiheadAttention": "input",
        "ReLU": "output", "Softmax": "output", "Dropout": "mask", "ZeroPad2d": "none",
        "Flatten": "alias", "Embedding": "input"}
    assert "saves" not in db.module("Sequential")
    assert {"SGD", "Adam", "AdamW", "LBFGS", "Optimizer"} <= set(db.optimizers())
    assert {"zeros", "randn", "arange", "tensor", "as_tensor", "from_numpy"} <= db.factories()
    assert "zeros_like" not in db.factories()  # takes a tensor


def test_torchapi_tables_keep_their_types():
    from gradguard.analysis import torchapi as T
    for name in ("CUT_METHODS", "FACTORIES", "NON_SAVING_METHODS", "NON_SAVING_FUNCTIONS",
                 "OUTPUT_SAVING", "INPLACE_MODULES"):
        assert isinstance(getattr(T, name), frozenset), name
    assert isinstance(T.OPTIMIZER_SUFFIXES, tuple)
    assert T.RECURRENT_MODULES["LSTM"] == "tuple" and T.RECURRENT_MODULES["GRU"] == "tensor"
    assert T.RECURRENT_MODULES["LSTMCell"] is None
    assert {"add", "view", "to", "cuda", "reshape"} <= T.NON_SAVING_METHODS
    assert "mul" not in T.NON_SAVING_METHODS and "mul" not in T.OUTPUT_SAVING
    assert {"sigmoid", "tanh", "exp", "softmax", "relu"} <= T.OUTPUT_SAVING
    assert "elu" not in T.OUTPUT_SAVING  # EluBackward0 saves self
    assert {"argmax", "eq", "detach", "item"} <= T.CUT_METHODS
    assert "sign" not in T.CUT_METHODS  # SignBackward0: differentiable (zero gradient)
    assert {"zeros", "argmax", "one_hot", "tensor"} <= T.FACTORIES
    assert "normal" not in T.FACTORIES  # normal(mean_tensor, std) is differentiable
    assert {"ReLU", "Dropout", "RReLU"} <= T.INPLACE_MODULES


def _imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module


def test_package_never_imports_torch_in_source():
    pkg = ROOT / "server/gradguard"
    bad = [(str(p.relative_to(pkg)), m) for p in sorted(pkg.rglob("*.py"))
           for m in _imports(p) if m.split(".")[0] in ("torch", "torchgen")]
    assert not bad


def test_analysis_never_imports_torch_at_run_time():
    code = ("import sys, gradguard.analysis as a\n"
            "a.analyze('import torch\\nx = torch.randn(3, requires_grad=True)\\n"
            "y = x.sigmoid()\\ny.sum().backward()\\ny.sum().backward()\\n')\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'torchgen')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT / "server")}, check=True)
    assert out.stdout.strip() == "[]"
