"""Whole programs: the user's own modules an analysed file imports are found (jedi) and
interpreted like the file's own code. Each buggy program raises under torch 2.13 as
written here; each look-alike runs and trains."""

import json

import pytest

from gradguard.analysis import analyze
from gradguard.cache import ResultCache
from gradguard.workspace import Workspace
from robustness.robustness_support import cli_in_process

MODEL = """import torch.nn as nn


class LM(nn.Module):
    def __init__(self, vocab=20, dim=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)
        self.hidden = None

    def forward(self, tokens):
        out, self.hidden = self.rnn(self.embed(tokens), self.hidden)
        return self.head(out)
"""

UTILS = """def repackage_hidden(h):
    if isinstance(h, tuple):
        return tuple(repackage_hidden(v) for v in h)
    return h.detach()
"""

TRAIN = """import torch
import torch.nn.functional as F

from {module} import LM
{more}
model = LM()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    tokens = torch.randint(0, 20, (2, 5))
{before}    logits = model(tokens)
    loss = F.cross_entropy(logits.flatten(0, 1), tokens.flatten())
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

REPACKAGE = """    if model.hidden is not None:
        model.hidden = repackage_hidden(model.hidden)
"""


def _write(folder, files: dict) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _check(path):
    return analyze(path.read_text(encoding="utf-8"), Workspace().importer(str(path)))


def test_state_kept_by_an_imported_forward_is_a_carried_graph(tmp_path):
    _write(tmp_path, {"model.py": MODEL,
                      "train.py": TRAIN.format(module="model", more="", before="")})
    [f] = _check(tmp_path / "train.py").findings
    assert (f.code, f.span.start.line, f.span.path) == ("GG102", 13, None)
    assert f.message.render() == (
        "`loss` reaches the previous iteration's graph through `model.hidden`, which the "
        "backward on line 13 freed in that iteration")
    # alone, the import is unknown: nothing to say
    assert analyze((tmp_path / "train.py").read_text()).findings == ()


def test_an_imported_helper_that_detaches_is_followed(tmp_path):
    _write(tmp_path, {"model.py": MODEL, "utils.py": UTILS, "train.py": TRAIN.format(
        module="model", more="from utils import repackage_hidden\n", before=REPACKAGE)})
    result = _check(tmp_path / "train.py")
    assert result.findings == ()
    assert sorted(p for p, _ in result.deps) == [str(tmp_path / "model.py"),
                                                 str(tmp_path / "utils.py")]


def test_relative_imports_in_a_package(tmp_path):
    _write(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/nets/__init__.py":
                      "from .lm import LM\n", "pkg/nets/lm.py": MODEL,
                      "pkg/train.py": TRAIN.format(module=".nets", more="", before="")})
    [f] = _check(tmp_path / "pkg" / "train.py").findings
    assert (f.code, f.span.start.line) == ("GG102", 13)


INPLACE_MODEL = """import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 4), nn.ReLU(inplace=True))

    def forward(self, x):
        out = self.body(x)
        out += x
        return out


if __name__ == "__main__":
    raise SystemExit("not run when imported")
"""

INPLACE_TRAIN = """import torch

from block import Block

net = Block()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(2):
    loss = net(torch.randn(2, 4)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_an_inplace_change_in_an_imported_forward_is_reported_at_the_backward(tmp_path):
    _write(tmp_path, {"block.py": INPLACE_MODEL, "train.py": INPLACE_TRAIN})
    [f] = _check(tmp_path / "train.py").findings
    block = str(tmp_path / "block.py")
    assert (f.code, f.span.start.line, f.span.start.column) == ("GG202", 10, 4)
    assert f.message.render() == ("In-place change of `out`, which `self.body(x)` "
                                  "(line block.py:10) saved for backward")
    assert [(r.span.path, r.span.start.line, r.message.render()) for r in f.related] == [
        (block, 11, "it happens here, in block.py"),
        (block, 10, "`out` was saved for backward here")]
    [edit] = f.preferred_fix.edits
    assert (edit.span.path, edit.span.start.line, edit.new_text) == (block, 11, "out = out + x")
    assert not f.preferred_fix.in_file


def test_cli_json_names_the_imported_file_and_fix_does_not_write_it(tmp_path, monkeypatch):
    _write(tmp_path, {"block.py": INPLACE_MODEL, "train.py": INPLACE_TRAIN})
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli_in_process("check", "--no-cache", "--format", "json", "train.py")
    [item] = json.loads(out)
    block = str(tmp_path / "block.py")
    assert (code, item["code"], item["location"]["row"]) == (1, "GG202", 10)
    assert [r["filename"] for r in item["related"]] == [block, block]
    assert item["fix"]["edits"] == [{"content": "out = out + x", "filename": block,
                                     "location": {"row": 11, "column": 9},
                                     "end_location": {"row": 11, "column": 17}}]
    code, out, _ = cli_in_process("check", "--no-cache", "--fix", "train.py")
    assert (tmp_path / "block.py").read_text() == INPLACE_MODEL
    assert "can be fixed" not in out


def test_the_cache_holds_while_imported_modules_are_unchanged(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADGUARD_CACHE_DIR", str(tmp_path / "cache"))
    _write(tmp_path / "p", {"model.py": MODEL,
                            "train.py": TRAIN.format(module="model", more="", before="")})
    monkeypatch.chdir(tmp_path / "p")
    code, out, _ = cli_in_process("check", "train.py")
    assert code == 1 and "GG102" in out
    train = str(tmp_path / "p" / "train.py")
    text = (tmp_path / "p" / "train.py").read_text()

    def cached():
        ws = Workspace()
        return ResultCache.open().get(text, ws.text_of, train, ws.importer(train).scope(text))
    assert cached() is not None
    # the model now detaches what it keeps: the cached result no longer holds
    (tmp_path / "p" / "model.py").write_text(MODEL.replace(
        "self.hidden = None\n", "self.hidden = None\n\n    def step_done(self):\n"
        "        pass\n").replace("return self.head(out)",
                                 "self.hidden = self.hidden.detach()\n        return self.head(out)"))
    assert cached() is None
    code, out, _ = cli_in_process("check", "train.py")
    assert (code, out) == (0, "All checks passed.\n")


def test_a_module_added_after_the_check_makes_the_cached_result_stale(tmp_path, monkeypatch):
    # train.py was checked when model.py did not exist (its import named nothing of the
    # user's): the entry did not depend on model.py, and its "All checks passed." was
    # replayed after model.py appeared (found by trying it as a user would)
    monkeypatch.setenv("GRADGUARD_CACHE_DIR", str(tmp_path / "cache"))
    _write(tmp_path / "p", {"train.py": TRAIN.format(module="model", more="", before="")})
    monkeypatch.chdir(tmp_path / "p")
    assert cli_in_process("check", "train.py")[:2] == (0, "All checks passed.\n")
    (tmp_path / "p" / "model.py").write_text(MODEL)
    code, out, _ = cli_in_process("check", "train.py")
    assert code == 1 and "GG102" in out
    (tmp_path / "p" / "model.py").unlink()
    assert cli_in_process("check", "train.py")[:2] == (0, "All checks passed.\n")


@pytest.mark.parametrize("line", ["import torch", "import numpy as np", "from os import path"])
def test_installed_packages_are_never_looked_up(tmp_path, line):
    """jedi is asked only about imports that could name a file of the project."""
    ws = Workspace()
    (tmp_path / "a.py").write_text(line + "\n")
    module = line.split()[1]
    assert ws.find(str(tmp_path / "a.py"), str(tmp_path), module, 0) is None
    assert ws._projects == {}  # no jedi project was even made


def test_looking_up_imports_starts_no_process(tmp_path, monkeypatch):
    """jedi's default environment would run a Python of the user's to ask for its paths."""
    import subprocess

    _write(tmp_path, {"model.py": MODEL,
                      "train.py": TRAIN.format(module="model", more="", before="")})

    def refuse(*args, **kwargs):
        raise AssertionError(f"a process was started: {args}")

    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)
    [f] = _check(tmp_path / "train.py").findings
    assert f.code == "GG102"


@pytest.mark.parametrize("imports", [
    "import _native\n", "from ops import _kernels\n", "import ops._kernels\n",
    "from nsops import _c\n", "import nsops._c\n"])
def test_compiled_extensions_of_the_project_are_never_loaded(tmp_path, monkeypatch, imports):
    """A compiled extension (``.so``) runs code when it is imported, and jedi imports one to
    know what it holds: no look-up ever gets that far."""
    import jedi.inference.compiled

    suffix = ".cpython-311-x86_64-linux-gnu.so"
    _write(tmp_path, {"model.py": MODEL, "ops/__init__.py": "from . import _kernels\n",
                      "ops/_kernels" + suffix: "not a library", "_native" + suffix: "",
                      "nsops/_c" + suffix: "",
                      "train.py": TRAIN.format(module="model", more=imports, before="")})

    def refuse(*args, **kwargs):
        raise AssertionError(f"jedi loaded a compiled module: {kwargs}")

    monkeypatch.setattr(jedi.inference.compiled, "load_module", refuse)
    [f] = _check(tmp_path / "train.py").findings
    assert (f.code, f.span.start.line) == ("GG102", 14)


def test_a_script_imports_the_package_of_a_src_layout(tmp_path):
    _write(tmp_path, {".git/HEAD": "", "src/lmpkg/__init__.py": "", "src/lmpkg/model.py": MODEL,
                      "scripts/train.py": TRAIN.format(module="lmpkg.model", more="", before="")})
    [f] = _check(tmp_path / "scripts" / "train.py").findings
    assert (f.code, f.span.start.line) == ("GG102", 13)


UTILS_DETACH = """def detach_state(h):
    return h.detach()


def carry(h):
    return h
"""

STATE_TRAIN = """import torch
import torch.nn as nn
{imports}

rnn = nn.RNN(4, 4)
opt = torch.optim.SGD(rnn.parameters(), lr=0.1)
hidden = torch.zeros(1, 1, 4)
for _ in range(3):
    out, hidden = rnn(torch.randn(5, 1, 4), hidden)
    hidden = {call}(hidden)
    opt.zero_grad()
    out.sum().backward()
    opt.step()
"""


@pytest.mark.parametrize("imports, call", [
    ("import utils", "utils.detach_state"),
    ("import utils as U", "U.detach_state"),
    ("from utils import detach_state", "detach_state"),
    ("from utils import *", "detach_state"),
])
def test_a_helper_reached_through_the_module_is_followed(tmp_path, imports, call):
    _write(tmp_path, {"utils.py": UTILS_DETACH,
                      "train.py": STATE_TRAIN.format(imports=imports, call=call)})
    assert _check(tmp_path / "train.py").findings == ()
    # the same helper that keeps the graph: the carried hidden state is found
    carry = call.replace("detach_state", "carry")
    _write(tmp_path, {"train.py": STATE_TRAIN.format(imports=imports, call=carry)})
    assert [f.code for f in _check(tmp_path / "train.py").findings] == ["GG102"]


def test_star_import_takes_what_all_lists(tmp_path):
    # the local carry detaches; model.carry is not in model.__all__, so it stays local
    _write(tmp_path, {"model.py": '__all__ = ["detach_state"]\n' + UTILS_DETACH,
                      "train.py": STATE_TRAIN.format(
                          imports="def carry(h):\n    return h.detach()\n\n\nfrom model import *",
                          call="carry")})
    assert _check(tmp_path / "train.py").findings == ()


def test_import_of_a_submodule_binds_the_package_and_its_attributes(tmp_path):
    _write(tmp_path, {"pyproject.toml": "", "nets/__init__.py": "", "nets/rnn/__init__.py": "",
                      "nets/rnn/lm.py": MODEL,
                      "train.py": TRAIN.format(module="nets.rnn.lm", more="", before="").replace(
                          "from nets.rnn.lm import LM\n", "import nets.rnn.lm\n").replace(
                          "model = LM()", "model = nets.rnn.lm.LM()")})
    [f] = _check(tmp_path / "train.py").findings
    assert (f.code, f.span.start.line) == ("GG102", 13)


TRAINER = """def gan_step(netG, netD, optG, optD, z):
    fake = netG(z)
    optD.zero_grad()
    errD = netD(fake).mean()
    errD.backward()
    optD.step()
    optG.zero_grad()
    errG = -netD(fake).mean()
    errG.backward()
    optG.step()
"""

GAN_LOOP = """import torch
import torch.nn as nn
from trainer import gan_step

netG, netD = nn.Linear(8, 8), nn.Sequential(nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
optG = torch.optim.Adam(netG.parameters(), lr=2e-4)
optD = torch.optim.Adam(netD.parameters(), lr=2e-4)
for step in range(3):
    gan_step(netG, netD, optG, optD, torch.randn(4, 8))
"""


def test_a_hazard_inside_an_imported_function_is_reported_at_its_call(tmp_path):
    # the file has no backward of its own: it is analysed because it calls, in a loop,
    # a function of a module of the user's that has one
    _write(tmp_path, {"trainer.py": TRAINER, "train.py": GAN_LOOP})
    [f] = _check(tmp_path / "train.py").findings
    trainer = str(tmp_path / "trainer.py")
    assert (f.code, f.span.start.line, f.span.start.column, f.span.end.column) == \
        ("GG101", 9, 4, 55)
    assert [(r.span.path, r.span.start.line, r.message.render()) for r in f.related][:2] == [
        (trainer, 9, "it happens here, in trainer.py"),
        (trainer, 2, "graph of `fake` built here")]
    # the fixed step (the discriminator loss on fake.detach()) is clean
    _write(tmp_path, {"trainer.py": TRAINER.replace("errD = netD(fake)", "errD = netD(fake.detach())")})
    assert _check(tmp_path / "train.py").findings == ()


FIT = """import torch.nn as nn
import torch.optim as optim


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = optim.SGD(model.parameters(), lr=0.1)
        self.history = []

    def validate(self, batches):
        self.model.eval()
        total = 0
        for x, y in batches:
            total += nn.functional.mse_loss(self.model(x), y)
        return total / len(batches)

    def fit(self, batches, epochs):
        for _ in range(epochs):
            self.model.train()
            for x, y in batches:
                loss = nn.functional.mse_loss(self.model(x), y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
            self.history.append(self.validate(batches))
"""

MAIN = """import torch
from trainer import Trainer

batches = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(2)]
trainer = Trainer(torch.nn.Linear(3, 1))
trainer.fit(batches, epochs=3)
"""


def test_a_script_without_a_loop_that_runs_an_imported_trainer_is_analysed(tmp_path):
    # the loops are all in trainer.py: the call on line 6 runs them
    _write(tmp_path, {"trainer.py": FIT, "main.py": MAIN})
    trainer = str(tmp_path / "trainer.py")
    found = _check(tmp_path / "main.py").findings
    assert [(f.code, f.span.start.line, f.span.start.column) for f in found] == [
        ("GG301", 6, 0), ("GG303", 6, 0)]
    assert [(r.span.path, r.span.start.line, r.message.render()) for r in found[1].related] \
        == [(trainer, 15, "it happens here, in trainer.py")]
    # trainer.py binds no `torch`: the fix does not decorate with @torch.inference_mode()
    # (a NameError) but detaches the term, in trainer.py
    [fix] = found[1].fixes
    assert fix.title.render() == \
        "Accumulate `nn.functional.mse_loss(self.model(x), y)` without its graph (.detach())"
    assert [(e.span.path, e.span.start.line, e.new_text) for e in fix.edits] == [
        (trainer, 15, "nn.functional.mse_loss(self.model(x), y).detach()")]

AGENT = """import torch
import torch.nn as nn


class Agent:
    def __init__(self):
        self.encoder = nn.Linear(8, 4)
        self.critic = nn.Linear(4, 1)
        self.encoder_opt = torch.optim.Adam(self.encoder.parameters())
        self.critic_opt = torch.optim.Adam(self.critic.parameters())

    def update(self, obs, target):
        with torch.no_grad():
            h = self.encoder(obs)
        loss = (self.critic(h) - target).pow(2).mean()
        self.encoder_opt.zero_grad()
        self.critic_opt.zero_grad()
        loss.backward()
        self.critic_opt.step()
        self.encoder_opt.step()
"""

PRETRAIN = """import torch
from agent import Agent

agent = Agent()
for step in range(4):
    agent.update(torch.randn(5, 8), torch.randn(5, 1))
"""


def test_an_optimizer_stepped_in_an_imported_method_is_reported_at_its_call(tmp_path):
    # GG402 of a step in agent.py, reached from this file's loop (the CIC encoder)
    _write(tmp_path, {"agent.py": AGENT, "pretrain.py": PRETRAIN})
    agent = str(tmp_path / "agent.py")
    [f] = _check(tmp_path / "pretrain.py").findings
    assert (f.code, f.span.start.line, f.span.start.column) == ("GG402", 6, 4)
    assert [(r.span.path, r.span.start.line, r.message.render()) for r in f.related][:3] == [
        (agent, 20, "it happens here, in agent.py"),
        (agent, 13, "the graph from `self.encoder` is cut here"),
        (agent, 18, "this backward does not reach `self.encoder`")]

FREQS = """import torch
import torch.nn as nn


class Freqs(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.inv = nn.Parameter(torch.ones(dim))
        self.cached = None

    def forward(self, n):
        if self.cached is not None and n <= self.cached.shape[0]:
            return self.cached[:n]
        freqs = torch.einsum("i,j->ij", torch.arange(n).float(), self.inv)
        self.cached = freqs
        return freqs
"""

FREQS_TRAIN = """import torch

from freqs import Freqs

net = torch.nn.Linear(8, 8)
rot = Freqs()
opt = torch.optim.SGD(list(net.parameters()) + list(rot.parameters()), lr=0.1)
for step in range(3):
    loss = (net(torch.randn(5, 8)) * rot(5).cos()).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_a_cache_kept_by_an_imported_forward_is_named_where_it_is_stored(tmp_path):
    # the carrier is rot.cached, stored in freqs.py (overwritten in the next iteration's
    # forward, so it is found as the iteration began); the fix clears it
    _write(tmp_path, {"freqs.py": FREQS, "train.py": FREQS_TRAIN})
    [f] = _check(tmp_path / "train.py").findings
    assert f.message.render() == (
        "`loss` reaches the previous iteration's graph through `rot.cached`, which the "
        "backward on line 11 freed in that iteration")
    site = f.related[-1]
    assert (site.span.path, site.span.start.line, site.message.render()) == (
        str(tmp_path / "freqs.py"), 15,
        "`rot.cached` got the graph here and carries it into the next iteration")
    fixed = FREQS_TRAIN.replace("    loss.backward()\n",
                                "    loss.backward()\n    rot.cached = None\n")
    assert [(e.span.start.line, e.new_text) for e in f.preferred_fix.edits] == [
        (11, "\n    rot.cached = None")]
    (tmp_path / "train.py").write_text(fixed)
    assert _check(tmp_path / "train.py").findings == ()


def test_an_eval_with_an_argument_is_no_evaluation_mode(tmp_path):
    # nn.Module.eval() takes no argument: strategy.eval(stream) is a library's loop
    src = """import torch
import torch.nn as nn

model = nn.Linear(4, 2)
outputs = []
for step in range(3):
    strategy.eval(step)
    outputs.append(model(torch.randn(2, 4)))
"""
    assert analyze(src).findings == ()
    [f] = analyze(src.replace("strategy.eval(step)", "model.eval()")).findings
    assert f.code == "GG303"


def test_only_the_modules_whose_names_are_read_are_loaded(tmp_path):
    """An import binds its name lazily: a module imported but never used is not looked
    up or interpreted (the result depends on model.py only)."""
    _write(tmp_path, {"model.py": MODEL, "plots.py": "def plot(x):\n    return x\n",
                      "train.py": TRAIN.format(module="model", more="from plots import plot\n",
                                               before="")})
    result = _check(tmp_path / "train.py")
    assert [(f.code, f.span.start.line) for f in result.findings] == [("GG102", 14)]
    assert [path for path, _ in result.deps] == [str(tmp_path / "model.py")]


def test_a_submodule_imported_from_its_package(tmp_path):
    """``from pkg import lm`` names the submodule when the package's body binds no
    ``lm`` (an empty ``__init__.py``), as in Python."""
    _write(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/lm.py": MODEL,
                      "train.py": TRAIN.replace("from {module} import LM", "from pkg import lm")
                      .replace("model = LM()", "model = lm.LM()").format(more="", before="")})
    [f] = _check(tmp_path / "train.py").findings
    assert (f.code, f.span.start.line) == ("GG102", 13)


def test_a_fallback_import_keeps_both_definitions(tmp_path):
    """``try: from a import f`` / ``except ImportError: from b import f``: a call of
    ``f`` runs each; the one that detaches the hidden state is not enough."""
    _write(tmp_path, {"model.py": MODEL, "fast.py": UTILS,
                      "slow.py": "def repackage_hidden(h):\n    return h\n",
                      "train.py": TRAIN.format(
                          module="model", before=REPACKAGE,
                          more="try:\n    from fast import repackage_hidden\n"
                               "except ImportError:\n    from slow import repackage_hidden\n")})
    [f] = _check(tmp_path / "train.py").findings
    assert (f.code, f.span.start.line) == ("GG102", 19)
    _write(tmp_path, {"slow.py": UTILS})
    assert _check(tmp_path / "train.py").findings == ()


def test_a_function_that_read_an_imported_module_runs_again_when_the_module_changes(tmp_path):
    """The incremental engine (the server's) reuses a function root's findings only
    while the modules it read, here only from inside the function, are unchanged."""
    from gradguard.analysis import incremental_analyzer

    fixed = MODEL.replace("out, self.hidden = self.rnn(self.embed(tokens), self.hidden)",
                          "out, _ = self.rnn(self.embed(tokens))")
    texts = {str(tmp_path / "model.py"): MODEL}
    train = "def train():\n" + "".join(
        "    " + line + "\n" if line else "\n"
        for line in TRAIN.format(module="model", more="", before="").splitlines())
    _write(tmp_path, {"model.py": MODEL, "train.py": train})
    ws = Workspace(text_of=texts.get)
    analyzer = incremental_analyzer()
    [f] = analyzer(train, imports=ws.importer(str(tmp_path / "train.py"))).findings
    assert (f.code, f.span.start.line) == ("GG102", 14)
    texts[str(tmp_path / "model.py")] = fixed
    ws.forget()
    assert analyzer(train, imports=ws.importer(str(tmp_path / "train.py"))).findings == ()


def test_an_edit_of_one_imported_module_reruns_only_the_functions_that_read_it(tmp_path):
    """Functions importing at module level: after an edit of ``model.py`` the incremental
    engine runs again only the function that reads it; the one that reads ``utils.py``
    keeps its findings (the workspace forgets only what the edit made stale); the
    results are a fresh analysis's each time."""
    from gradguard.analysis.engine import Engine

    fixed = MODEL.replace("out, self.hidden = self.rnn(self.embed(tokens), self.hidden)",
                          "out, _ = self.rnn(self.embed(tokens))")
    model, utils = str(tmp_path / "model.py"), str(tmp_path / "utils.py")
    texts = {model: MODEL, utils: "def scaled(x):\n    return x * 2\n"}
    body = TRAIN.format(module="model", more="", before="").split("\nmodel = LM()\n")[1]
    train = ("import torch\nimport torch.nn.functional as F\n\nfrom model import LM\n"
             "from utils import scaled\n\n\ndef train():\n    model = LM()\n" + "".join(
                 "    " + line + "\n" if line else "\n" for line in body.splitlines()) +
             "\n\ndef fit(x):\n    w = torch.ones(3, requires_grad=True)\n"
             "    y = scaled(x * w).exp()\n    y.sum().backward()\n    y.sum().backward()\n")
    _write(tmp_path, {"model.py": MODEL, "utils.py": texts[utils], "train.py": train})
    ws = Workspace(text_of=texts.get)
    engine = Engine(incremental=True)
    path = str(tmp_path / "train.py")

    def check():
        result = engine.analyze(train, imports=ws.importer(path))
        assert result == analyze(train, Workspace(text_of=texts.get).importer(path))
        return [(f.code, f.span.start.line) for f in result.findings], \
            (engine.last_run["run"], engine.last_run["reused"])

    assert check() == ([("GG102", 16), ("GG101", 24)], (2, 0))
    texts[model] = fixed
    ws.forget([model])
    assert check() == ([("GG101", 24)], (1, 1))
    texts[utils] = "def scaled(x):\n    return (x * 2).detach()\n"
    ws.forget([utils])
    assert check() == ([("GG401", 23), ("GG401", 24)], (1, 1))
    assert check()[1] == (0, 2)  # nothing changed


def test_a_relative_import_through_a_folder_without_init_finds_the_module_in_it(tmp_path):
    """``from .sub.mod import f`` in package ``pkg`` names ``pkg/sub/mod.py`` even when
    ``sub`` has no ``__init__.py`` (a namespace package), never a ``pkg/mod.py`` beside."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text("def f():\n    return 1\n")
    (pkg / "sub" / "mod.py").write_text("def f():\n    return 2\n")
    (pkg / "train.py").write_text("from .sub.mod import f\n")
    ws = Workspace()
    imports = ws.importer(str(pkg / "train.py"))
    assert imports.resolve("sub.mod", 1).path == str(pkg / "sub" / "mod.py")
    assert imports.resolve("mod", 1).path == str(pkg / "mod.py")
    assert imports.resolve("sub.missing", 1) is None


def test_an_imported_module_is_looked_up_once_per_analysis(tmp_path):
    """Every read of an imported name in every function root (and each branch's copy of
    the state) used to look the module up and read its file again: one look-up now."""
    _write(tmp_path, {"model.py": MODEL, "train.py": "from model import LM\n\n\n"
        "def train():\n" + "".join("    " + line + "\n" if line else "\n" for line in
                                    TRAIN.format(module="model", more="", before="").splitlines()) +
        "\n\ndef again(x):\n    if x:\n        model = LM()\n    else:\n        model = LM(4)\n"
        "    model(x).sum().backward()\n"})
    ws = Workspace()
    asked = []
    importer = ws.importer(str(tmp_path / "train.py"))
    resolve = importer.resolve
    importer.resolve = lambda module, level: asked.append((module, level)) or resolve(
        module, level)
    result = analyze((tmp_path / "train.py").read_text(), importer)
    assert [(f.code, f.span.start.line) for f in result.findings] == [("GG102", 17)]
    assert asked == [("model", 0)]


def test_a_module_file_is_read_again_only_when_it_changed(tmp_path, monkeypatch):
    """``read_text`` keeps what it read while the file's size, time and inode stay, and
    reads a file changed in the last two seconds each time (a second write in the same
    clock tick would keep the time)."""
    import os

    from gradguard import files, workspace

    reads = []
    real = files.read_source
    monkeypatch.setattr(files, "read_source", lambda p: reads.append(p) or real(p))
    path = tmp_path / "model.py"
    path.write_text("x = 1\n")
    assert [workspace.read_text(str(path)) for _ in range(2)] == ["x = 1\n"] * 2
    assert len(reads) == 2  # just written: read each time
    old = os.stat(path).st_mtime_ns - 10**10
    os.utime(path, ns=(old, old))
    assert [workspace.read_text(str(path)) for _ in range(3)] == ["x = 1\n"] * 3
    assert len(reads) == 3  # read once more, then kept
    path.write_text("x = 2\n")  # same size
    os.utime(path, ns=(old + 1, old + 1))
    assert workspace.read_text(str(path)) == "x = 2\n"
    path.unlink()
    assert workspace.read_text(str(path)) is None


DEEP_BACKBONE = """import torch.nn as nn

ACTIVATIONS = {"relu": nn.ReLU, "linear": nn.Identity}


class ConvAct(nn.Module):
    def __init__(self, cin, cout, act="linear"):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.act = ACTIVATIONS[act]()

    def forward(self, x):
        return self.act(self.conv(x))


class Residual(nn.Module):
    def __init__(self, c, act="linear"):
        super().__init__()
        self.body = nn.Sequential(ConvAct(c, c, act), ConvAct(c, c, act))

    def forward(self, x):
        out = self.body(x)
        out += x
        return out


class Stage(nn.Module):
    def __init__(self, cin, cout, depth, act="linear"):
        super().__init__()
        self.down = ConvAct(cin, cout, act)
        self.blocks = nn.Sequential(*[Residual(cout, act) for _ in range(depth)])

    def forward(self, x):
        return self.blocks(self.down(x))


class Backbone(nn.Module):
    def __init__(self, widths=(8, 16), depths=(1, 2), act="linear"):
        super().__init__()
        stages, cin = [], 3
        for width, depth in zip(widths, depths):
            stages.append(Stage(cin, width, depth, act))
            cin = width
        self.stages = nn.Sequential(*stages)

    def forward(self, x):
        return self.stages(x)
"""

DEEP_TRAIN = """import torch

from backbone import Backbone

cfg = {"act": "relu", "lr": 0.01}


def main():
    model = Backbone(act=cfg["act"])
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
    for step in range(2):
        loss = model(torch.randn(2, 3, 8, 8)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
"""


def test_a_model_nested_four_modules_deep_in_an_imported_file_is_followed(tmp_path):
    # a detector backbone (YOLOv4-pytorch#247): Backbone -> Stage -> Residual -> ConvAct,
    # its activation chosen by the training script's config; with "relu" the residual
    # ``out += x`` changes the ReLU output its backward needs (torch raises)
    _write(tmp_path, {"backbone.py": DEEP_BACKBONE, "train.py": DEEP_TRAIN})
    [f] = _check(tmp_path / "train.py").findings
    assert (f.code, f.span.start.line, f.message.render()) == (
        "GG202", 14, "In-place change of `out`, which `self.act(self.conv(x))` "
                     "(line backbone.py:13) saved for backward")
    _write(tmp_path, {"train.py": DEEP_TRAIN.replace('"act": "relu"', '"act": "linear"')})
    assert _check(tmp_path / "train.py").findings == ()


def test_stages_appended_to_a_list_are_the_children_of_its_sequential():
    # the same backbone in the training script's own file: ``stages.append(Stage(...))``
    # in a loop, then ``nn.Sequential(*stages)``: the Stage built there runs
    program = "import torch\n" + DEEP_BACKBONE + DEEP_TRAIN.split("from backbone import Backbone\n")[1]
    [f] = analyze(program).findings
    assert (f.code, f.span.start.line, f.message.render()) == (
        "GG202", 24, "In-place change of `out`, which `self.act(self.conv(x))` (line 14) "
                     "saved for backward")


def test_an_imported_model_built_with_super_init_is_judged_by_gg402(tmp_path):
    # super().__init__() runs nn.Module.__init__, not the class's own __init__ again, and a
    # method that only installs a submodule (reset_head) keeps the model known; the
    # forward's dropout reads self.training, a bool; the body is frozen, so the optimizer
    # trains the old head alone
    _write(tmp_path, {"nets.py": """import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)
        self.head = nn.Linear(4, 1)

    def reset_head(self):
        self.head = nn.Linear(4, 1)

    def forward(self, x):
        return self.head(F.dropout(self.body(x), 0.1, training=self.training))
""", "train.py": """import torch
from nets import Net

model = Net()
model.body.requires_grad_(False)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model.reset_head()
for _ in range(2):
    loss = model(torch.randn(2, 4)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""})
    # (reported where the head is installed again, after the optimizer took the old one)
    assert [(f.code, f.span.start.line) for f in _check(tmp_path / "train.py").findings] == [
        ("GG402", 7)]
    text = (tmp_path / "train.py").read_text().replace("model.reset_head()\n", "")
    (tmp_path / "train.py").write_text(text)
    assert _check(tmp_path / "train.py").findings == ()



NTUPLE = """import collections.abc
from itertools import repeat

import torch


def _ntuple(n):
    def parse(x):
        if isinstance(x, collections.abc.Iterable):
            return tuple(x)
        return tuple(repeat(x, n))
    return parse


to_1tuple = _ntuple(1)
to_2tuple = _ntuple(2)
"""

PATCH_EMBED = """import torch
from torch import nn

from .helpers import to_2tuple


class PatchEmbed(nn.Module):
    def __init__(self, patch_size=16):
        super().__init__()
        self.patch_size = to_2tuple(patch_size)
        self.proj = nn.Conv2d(3, 8, self.patch_size, self.patch_size)

    def forward(self, x):
        return self.proj(x).flatten(2)  # (trained by a backward elsewhere)
"""


def test_a_closure_an_imported_module_made_is_called_from_a_method_root(tmp_path):
    """timm's ``to_2tuple = _ntuple(2)``: the closure's defining frame (made while the
    imported module ran) and the frame of a call of it in a root of this file were both
    numbered F3, so the closure's frame was its own parent and every name it read that
    no frame binds (``isinstance``) was looked up forever."""
    _write(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/helpers.py": NTUPLE,
                      "pkg/patch_embed.py": PATCH_EMBED})
    result = _check(tmp_path / "pkg" / "patch_embed.py")
    assert (result.findings, result.errors) == ((), ())


TWO_TIER_STEP = """def train_epoch(att, head, opt0, opt1, x):
    a = att(x)
    loss0 = a.sum()
    opt0.zero_grad()
    loss0.backward(retain_graph=True)
    opt0.step()
    loss1 = head(a).sum()
    opt1.zero_grad()
    loss1.backward()
    opt1.step()
"""

TWO_TIER_MAIN = """import torch
import torch.nn as nn

from tiers import train_epoch


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.v = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 4))

    def forward(self, x):
        return self.v(x)


def main():
    att, head = Attention(), nn.Linear(4, 1)
    opt0 = torch.optim.Adam(att.parameters())
    opt1 = torch.optim.Adam(head.parameters())
    for epoch in range(2):
        train_epoch(att, head, opt0, opt1, torch.randn(3, 4))


main()
"""


def test_a_hazard_of_an_imported_function_is_reported_at_its_call_not_at_a_forward(tmp_path):
    # DTFD-MIL: the imported epoch function steps att's parameters, then backpropagates
    # through the graph att's forward (in this file) saved; the forward is a related
    # location, the call of the epoch function the finding's line
    _write(tmp_path, {"tiers.py": TWO_TIER_STEP, "main.py": TWO_TIER_MAIN})
    [f] = _check(tmp_path / "main.py").findings
    tiers = str(tmp_path / "tiers.py")
    assert (f.code, f.span.start.line, f.span.start.column) == ("GG201", 21, 8)
    assert [(r.span.path, r.span.start.line, r.message.render()) for r in f.related] == [
        (tiers, 9, "it happens here, in tiers.py"),
        (None, 13, "the forward pass saved the parameters of `self.v` here"),
        (tiers, 6, "the parameters were updated here")]


MINI_TRAINER = """class Trainer:
    def __init__(self, model, opt):
        self.model = model
        self.opt = opt

    def compute_loss(self, x):
        return self.model(x).pow(2).mean()

    def training_step(self, x):
        loss = self.compute_loss(x)
        loss.backward()
        return loss

    def train(self, batches):
        for x in batches:
            self.opt.zero_grad()
            self.training_step(x)
            self.opt.step()
"""

PENALTY_TRAINER = """import torch
import torch.nn as nn

from mini_trainer import Trainer


class PenaltyTrainer(Trainer):
    def compute_loss(self, x):
        loss = self.model(x).pow(2).mean()
        loss.backward()
        return loss


model = nn.Linear(4, 1)
trainer = PenaltyTrainer(model, torch.optim.SGD(model.parameters(), lr=0.1))
trainer.train([torch.randn(2, 4) for _ in range(3)])
"""


def test_a_hazard_in_imported_code_is_reported_on_the_backward_of_this_file_it_is_about(
        tmp_path):
    # transformers#7662: an overridden compute_loss runs a backward, then the imported
    # training_step backpropagates the loss it returns; the backward in this file is the
    # line to change, not the call that reached the imported code
    _write(tmp_path, {"mini_trainer.py": MINI_TRAINER, "main.py": PENALTY_TRAINER})
    [f] = _check(tmp_path / "main.py").findings
    trainer = str(tmp_path / "mini_trainer.py")
    assert (f.code, f.span.start.line, f.span.start.column) == ("GG101", 10, 8)
    assert [(r.span.path, r.span.start.line, r.message.render()) for r in f.related] == [
        (trainer, 11, "it happens here, in mini_trainer.py"),
        (trainer, 10, "graph of `loss` built here")]


def test_a_module_that_turns_grad_mode_off_when_imported_turns_it_off_for_the_importer(tmp_path):
    # a pretrained flow estimator's module runs torch.set_grad_enabled(False) at import
    _write(tmp_path, {"pwc.py": "import torch\n\ntorch.set_grad_enabled(False)\n\n\n"
                                "def estimate(a, b):\n    return a - b\n",
                      "train.py": "import torch\nfrom pwc import estimate\n\n"
                                  "refiner = torch.nn.Linear(4, 4)\n"
                                  "opt = torch.optim.Adam(refiner.parameters())\n"
                                  "for step in range(3):\n"
                                  "    coarse = estimate(torch.randn(2, 4), torch.randn(2, 4))\n"
                                  "    loss = refiner(coarse).pow(2).mean()\n"
                                  "    opt.zero_grad()\n"
                                  "    loss.backward()\n"
                                  "    opt.step()\n"})
    [f] = _check(tmp_path / "train.py").findings
    assert (f.code, f.span.start.line, f.message.render()) == (
        "GG401", 10, "`loss` has no graph: it was computed under `torch.set_grad_enabled(False)` "
                     "(line pwc.py:3), so this backward raises \"element 0 of tensors does not "
                     "require grad and does not have a grad_fn\"")


STALE_TRAINER = """import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)

    def new_head(self, n):
        for p in self.model.parameters():
            p.requires_grad = False
        self.model.head = nn.Linear(8, n)

    def epoch(self, batches):
        for x, y in batches:
            self.optimizer.zero_grad()
            loss = nn.functional.cross_entropy(self.model(x), y)
            loss.backward()
            self.optimizer.step()
"""

STALE_SCRIPT = """import torch
import torch.nn as nn
from trainer import Trainer


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))


trainer = Trainer(Net())
trainer.new_head(3)
trainer.epoch([(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(4)])
"""


def test_layers_replaced_by_an_imported_method_after_its_optimizer_was_built(tmp_path):
    # transfer-nlp: a trainer's finetune_last_layer() swaps the head, the optimizer its
    # __init__ built still holds the old (frozen) parameters
    _write(tmp_path, {"trainer.py": STALE_TRAINER, "train.py": STALE_SCRIPT})
    [f] = _check(tmp_path / "train.py").findings
    assert (f.code, f.span.start.line, f.span.path) == ("GG402", 17, None)
    assert f.message.render() == (
        "`trainer.new_head(3)` builds layers of `self.model` again, after `self.optimizer` "
        "took their parameters (line trainer.py:8): the backward reaches the new layers, the "
        "optimizer steps the old ones, so they do not train. Build the optimizer after this "
        "line")
    assert [(r.span.path, r.span.start.line) for r in f.related] == [
        (str(tmp_path / "trainer.py"), 8), (str(tmp_path / "trainer.py"), 20)]
    # the head swapped before the trainer (and its optimizer) is built: it trains
    _write(tmp_path, {"train.py": STALE_SCRIPT.replace(
        "trainer = Trainer(Net())\ntrainer.new_head(3)\n",
        "net = Net()\nnet.head = nn.Linear(8, 3)\ntrainer = Trainer(net)\n")})
    assert _check(tmp_path / "train.py").findings == ()
