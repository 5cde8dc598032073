"""The language server's incremental engine gives, after every edit, exactly what a
from-scratch analysis of the same text gives, while re-running only the roots the edit
touched."""

from __future__ import annotations

import random
import sys

import pytest
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
                               "parsed": engine.last_run["parsed"]}
    assert engine.last_run["parsed"] < len(edited) // 5
    assert after == analyze(edited)
    # every finding below the edit moved down one line, messages' line numbers too
    below = [f for f in first.findings if f.span.start.line > at + 1]
    assert below and all(f.span.start.line + 1 in {g.span.start.line for g in after.findings}
                         for f in below)


def test_random_edits_in_a_long_class_give_the_findings_of_a_full_analysis():
    totals = _replay(class_heavy(), random_edit, 80, "class")
    assert totals["compared"] >= 10


def test_an_edit_in_one_method_reruns_only_that_method():
    text = class_heavy()
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
