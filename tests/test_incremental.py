"""The language server's incremental engine gives, after every edit, exactly what a
from-scratch analysis of the same text gives, while re-running only the roots the edit
touched."""

from __future__ import annotations

import random
import sys

import pytest
from broken_roots import break_root
from edits import ROOT, SCRIPTS, class_heavy, random_edit

from gradguard.analysis import analyze
from gradguard.analysis.engine import Engine

sys.path.insert(0, str(ROOT / "bench"))
from training_code import training_file  # noqa: E402  (the benchmarks' generated file)

# one-line edits as typed inside a training loop: they change the findings
LINE_EDITS = ["        loss.backward()", "        h = h.detach()", "        total_loss += loss",
              "        optimizer.step()", "        x.add_(1)", "        pass", "", "    # note"]


def _typing_edit(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    if rng.random() < 0.5:
        lines.insert(i, rng.choice(LINE_EDITS))
    else:
        del lines[i]
    return "\n".join(lines)


def _replay(text: str, edit, steps: int, seed: str) -> dict:
    """Apply ``steps`` edits; after each, compare the incremental engine with a
    from-scratch analysis. Returns the engine's counters summed."""
    rng = random.Random(seed)
    engine = Engine(incremental=True)
    assert engine.analyze(text) == analyze(text)
    good = text
    totals = {"run": 0, "reused": 0, "compared": 0}
    for _ in range(steps):
        text = edit(rng, text)
        expected = analyze(text)
        assert engine.analyze(text) == expected, text
        if expected.syntax_error is None:
            good = text
            totals["compared"] += 1
            totals["run"] += engine.last_run["run"]
            totals["reused"] += engine.last_run["reused"]
        elif rng.random() < 0.6:
            text = good
    return totals


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_random_edits_give_the_findings_of_a_full_analysis(script):
    totals = _replay(script.read_text(), random_edit, 120, script.name)
    assert totals["compared"] >= 10


def test_typing_in_a_long_file_reuses_the_untouched_roots_and_stays_exact():
    text = training_file(600)
    totals = _replay(text, _typing_edit, 40, "typing")
    assert totals["compared"] >= 20
    assert totals["reused"] > 2 * totals["run"]


def test_a_one_line_edit_reruns_only_its_function():
    text = training_file(600)
    engine = Engine(incremental=True)
    first = engine.analyze(text)
    roots = engine.last_run["run"]
    lines = text.split("\n")
    at = lines.index("def train_1(model, data, seq_len=16, epochs=1):")
    lines.insert(at + 1, "    # a comment typed in this function only")
    edited = "\n".join(lines)
    after = engine.analyze(edited)
    assert engine.last_run == {"run": 1, "reused": roots - 1,
                               "parsed": engine.last_run["parsed"],
                               "indexed": engine.last_run["indexed"]}
    assert engine.last_run["parsed"] < len(edited) // 5
    assert after == analyze(edited)
    # every finding below the edit moved down one line, messages' line numbers too
    below = [f for f in first.findings if f.span.start.line > at + 1]
    assert below and all(f.span.start.line + 1 in {g.span.start.line for g in after.findings}
                         for f in below)


GG103_AT_MODULE_LEVEL = """import torch
model = torch.nn.Linear(2, 2)
x = torch.randn(4, 2)
h = model(x).sum()
for step in range(3):
    loss = h * 2
    loss.backward()
print(h)
y = 1
z = 2
"""


def test_gg103s_fix_reads_the_name_index_of_the_edited_statements_only():
    # "Compute `h` inside the loop" asks whether `h` is read outside the loop, anywhere in
    # the module: the module's name index is joined from its statements' own, and only
    # the statement the edit re-parsed (`z = 3`) is indexed again
    engine = Engine(incremental=True)
    first = engine.analyze(GG103_AT_MODULE_LEVEL)
    assert [(f.code, f.fixes[0].title.msgid) for f in first.findings] == [
        ("GG103", "Compute `{name}` inside the loop (a new graph each iteration)")]
    assert engine.last_run["indexed"] == 8
    assert len(first.findings[0].fixes[0].edits) == 1  # `print(h)` reads it: kept
    edited = GG103_AT_MODULE_LEVEL.replace("z = 2", "z = 3")
    assert engine.analyze(edited) == analyze(edited) == first
    assert (engine.last_run["parsed"], engine.last_run["indexed"]) == (len("z = 3\n"), 1)
    # the fix deletes `h = ...` only while nothing outside the loop reads `h`
    unread = edited.replace("print(h)", "print(x)")
    assert len(engine.analyze(unread).findings[0].fixes[0].edits) == 2
    assert engine.last_run["indexed"] == 1  # (`print(x)`, parsed alone)
    assert engine.analyze(unread) == analyze(unread)


MODULE_NAMES = """import torch
DEVICE = "cpu"

SCALE = 2.0


def train_a(data):
    model = torch.nn.Linear(2, 2)
    for x in data:
        loss = model(x).sum() * SCALE
        loss.backward()
        loss.backward()


def train_b(data):
    model = torch.nn.Linear(2, 2)
    other = torch.nn.Linear(2, 2)
    opt = torch.optim.SGD(other.parameters(), lr=0.1)
    for x in data:
        loss = model(x).sum()
        loss.backward()
        opt.step()


LAST = 1
"""


def test_an_edit_at_module_level_reruns_only_the_roots_that_read_what_it_bound():
    engine = Engine(incremental=True)
    text = MODULE_NAMES
    assert [(f.code, f.span.start.line) for f in engine.analyze(text).findings] == [
        ("GG101", 12), ("GG402", 22)]
    assert (engine.last_run["run"], engine.last_run["reused"]) == (2, 0)
    steps = [("SCALE = 2.0", "SCALE = 3.0", (1, 1)),  # train_a reads SCALE
             ("LAST = 1", "LAST = 2\nOTHER = 3", (0, 2)),  # nobody reads these
             # GG402 is quiet in a file that writes gradients by hand: a fact of the
             # whole text, which every root's findings depend on
             ("OTHER = 3", "p.grad = g", (2, 0))]
    for old, new, counts in steps:
        text = text.replace(old, new)
        assert engine.analyze(text) == analyze(text)
        assert (engine.last_run["run"], engine.last_run["reused"]) == counts, (old, new)
    assert [f.code for f in engine.analyze(text).findings] == ["GG101"]


MODULE_OBJECTS = """import torch


class Settings:
    def __init__(self, scale):
        self.scale = scale


SETTINGS = Settings(2.0)
LOGGER = Settings(1.0)
HOLDER = Settings(3.0)
HOLDER.settings = SETTINGS


def train_a(data):
    model = torch.nn.Linear(2, 2)
    for x in data:
        loss = model(x).sum() * SETTINGS.scale
        loss.backward()
        loss.backward()


def train_b(data):
    model = torch.nn.Linear(2, 2)
    for x in data:
        loss = model(x).sum() * HOLDER.scale
        loss.backward()
"""


def test_an_edit_at_module_level_reruns_only_the_roots_that_can_reach_the_object_it_made():
    engine = Engine(incremental=True)
    text = MODULE_OBJECTS
    assert [(f.code, f.span.start.line) for f in engine.analyze(text).findings] == [
        ("GG101", 20)]
    # an object is known by the call that made it: made anew, the roots that hold it
    # (train_a reads SETTINGS, train_b HOLDER, whose attribute holds SETTINGS) run again,
    # and no root runs again for an object none of them holds
    steps = [("LOGGER = Settings(1.0)", "LOGGER = Settings(1.0)  # unused", (0, 2)),
             ("SETTINGS = Settings(2.0)", "SETTINGS = Settings(2.5)", (2, 0)),
             ("HOLDER = Settings(3.0)", "HOLDER = Settings(4.0)", (1, 1))]
    for old, new, counts in steps:
        text = text.replace(old, new)
        assert engine.analyze(text) == analyze(text)
        assert (engine.last_run["run"], engine.last_run["reused"]) == counts, (old, new)


@pytest.mark.parametrize("place", ["middle", "first", "last"])
def test_random_edits_in_a_long_class_give_the_findings_of_a_full_analysis(place):
    totals = _replay(class_heavy(place), random_edit, 80,
                     "class" if place == "middle" else f"class {place}")
    assert totals["compared"] >= 10


@pytest.mark.parametrize("place", ["middle", "first", "last"])
def test_an_edit_in_one_method_reruns_only_that_method(place):
    # (first and last: the class's text also holds the module's header or footer, and
    # only the methods around the edit are parsed again)
    text = class_heavy(place)
    engine = Engine(incremental=True)
    engine.analyze(text)
    methods = engine.last_run["run"]
    at = text.index("            running = rewards[t] + gamma * running")
    edited = text[:at] + "            # typed here\n" + text[at:]
    assert engine.analyze(edited) == analyze(edited)
    assert (engine.last_run["run"], engine.last_run["reused"]) == (1, methods - 1)
    assert engine.last_run["parsed"] < len(edited) // 5


def test_the_language_server_gives_each_document_the_incremental_engine():
    from gradguard.lsp.server import build_server

    first, second = build_server().analyzer_factory(), build_server().analyzer_factory()
    assert isinstance(first.__self__, Engine) and first.__self__.incremental
    assert first.__self__ is not second.__self__  # one engine (and its caches) per document


def test_a_statement_too_deep_to_print_is_analysed_from_scratch():
    """libcst parses 1,000 chained additions but cannot print them back within Python's
    recursion limit: the incremental parser gives up on that text, nothing escapes."""
    base = (ROOT / "examples" / "char_rnn.py").read_text()
    deep = base + "DEEP = " + " + ".join(["a"] * 1000) + "\n"
    engine = Engine(incremental=True)
    assert engine.analyze(base) == analyze(base)
    assert engine.analyze(deep) == analyze(deep)
    assert engine.analyze(base) == analyze(base)


BROKEN = '''import torch


def train(model, opt, data):
    model.train()
    for x, y in data:
        loss = model(x).sum()
        loss.backward()
        loss.backward()


def step(model, x):
    model.train()
    loss = model(x).sum()
    loss.backward()
    loss.backward()
'''


def test_an_internal_error_of_a_reused_root_moves_with_it(monkeypatch):
    """A function root that failed keeps its error while it is reused, moved to its new
    header line like findings are; editing the function re-runs it."""
    from gradguard.analysis.model import EngineError, Span

    break_root(monkeypatch, "train", KeyError("x"))
    engine = Engine(incremental=True)

    def error(line):
        return EngineError("root", "train", "train", Span.of(line, 0, line, 9), "KeyError: 'x'")
    assert engine.analyze(BROKEN).errors == (error(4),) == analyze(BROKEN).errors
    text = "# top\n\n" + BROKEN
    result = engine.analyze(text)
    assert (engine.last_run["run"], engine.last_run["reused"]) == (0, 2)
    assert result == analyze(text)
    assert result.errors == (error(6),)
    assert [f.span.start.line for f in result.findings] == [18]
    text = text.replace("def step(model, x):\n", "def step(model, x):\n    pass\n")
    result = engine.analyze(text)
    assert (engine.last_run["run"], engine.last_run["reused"]) == (1, 1)
    assert result == analyze(text) and result.errors == (error(6),)


def test_an_internal_error_of_the_module_body_is_at_line_1(monkeypatch):
    """The module body failing costs its findings only: the functions still run alone."""
    from gradguard.analysis.interp import Interpreter
    from gradguard.analysis.model import EngineError, Span

    def broken(self, *args, **kwargs):
        raise ValueError("bad\nnews\x1b")
    monkeypatch.setattr(Interpreter, "run_module", broken)
    text = BROKEN + "\nstep(None, None)\n"
    for result in (analyze(text), Engine(incremental=True).analyze(text)):
        assert result.errors == (EngineError("root", "module", None, Span.of(1, 0, 1, 0),
                                             "ValueError: bad news\\x1b"),)
        assert [f.span.start.line for f in result.findings] == [9, 16]


def test_reading_a_roots_class_failing_costs_that_root_only(monkeypatch):
    """Reading the class of a method root is part of that root: a bug there is reported on
    the method's header and the other roots' findings stay (it once cost the whole file
    with no record: tsai, a class defined twice)."""
    from broken_roots import BROKEN_ROOT

    from gradguard.analysis.calls import Calls
    from gradguard.analysis.model import EngineError, Span

    class_info = Calls.class_info

    def broken(self, node):
        if not self.frames:  # where the engine reads a root's class
            raise IndexError("list index out of range")
        return class_info(self, node)
    monkeypatch.setattr(Calls, "class_info", broken)
    result = analyze(BROKEN_ROOT)
    assert result.errors == (EngineError("root", "Trainer.step", "Trainer.step",
                                         Span.of(12, 4, 12, 12),
                                         "IndexError: list index out of range"),)
    assert [(f.code, f.span.start.line) for f in result.findings] == [("GG101", 8)]
