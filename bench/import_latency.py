#!/usr/bin/env python3
"""Cross-file re-diagnosis in ``gradguard lsp`` (issue 13): an edit in an imported
module, and what it costs the open document that imports it. Not a test.

    python bench/import_latency.py                 # train.py of >= 2,000 lines, 10 edits each
    python bench/import_latency.py --lines 5000 --edits 20 --settle 3

A two-file project is written to a temporary folder and both files are opened in a
fresh server (over stdio, the folder as its workspace): ``model.py`` (:func:`model_text`:
the ``nn.Module`` of ``examples/char_rnn.py``, the helper ``repackage_hidden`` that
detaches the hidden state, and a function ``scaled`` nothing calls) and ``train.py`` (:func:`train_loop`: a truncated-BPTT
loop that imports both the model and the helper, followed by the benchmark's generated
training code up to ``--lines`` lines, and a ``__main__`` call of the loop with the model,
left out with ``--no-main-call``: module-level code that builds the imported model makes
every function's reuse depend on ``model.py``). Then, in ``model.py`` only:

* ``--edits`` edits that change what ``train.py`` sees: the helper stops detaching
  (``return h.detach()`` becomes ``return h``) and starts again, in turn. Each is timed
  from sending the ``didChange`` to the first ``publishDiagnostics`` of ``train.py``
  whose diagnostics differ from those before (an error if none comes in 2 minutes);
  printed: p50 / p95 over one ``libcst.parse_module`` of ``train.py`` (timed in this
  process in the same run; issue 13's target: p50 <= 0.2x), and the findings in
  ``train.py`` with and without the detach;
* ``--edits`` edits that change nothing ``train.py`` depends on, of two kinds: a
  trailing comment typed and deleted on the helper's line, and a change to the body of
  ``scaled``. After each, once ``model.py``'s own diagnostics of that version have
  arrived, the benchmark waits ``--settle`` seconds (at least three times the p50
  above) and counts the ``publishDiagnostics`` of ``train.py`` since the edit, and
  how many of them changed its diagnostics (issue 13's target: none published).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from lsp_latency import Session, parse_ms, percentile
from training_code import EXAMPLES, training_file

HELPERS = '''

def repackage_hidden(h):
    """Cut the hidden state off the graph of the chunk before."""
    return h.detach()


def scaled(x, factor=2.0):
    return x * factor
'''
"""What ``model.py`` adds to the model: the helper ``train.py`` imports, and ``scaled``,
which it never calls."""


def model_text() -> str:
    """``model.py``: ``examples/char_rnn.py`` from its imports to its training function
    (the model ``CharRNN``), then :data:`HELPERS`."""
    example = (EXAMPLES / "char_rnn.py").read_text(encoding="utf-8")
    return example[example.index("import "):].split("\n\ndef train(")[0].rstrip() + "\n" + HELPERS


def train_loop() -> str:
    """The head of ``train.py``: the training function of ``examples/char_rnn.py`` with
    the model imported from ``model.py`` and the hidden state passed through
    ``repackage_hidden`` before each chunk, so its hazard (GG102 through ``hidden``)
    depends on whether the helper detaches."""
    example = (EXAMPLES / "char_rnn.py").read_text(encoding="utf-8")
    train = "def train(" + example.split("\n\ndef train(")[1].split("\n\nif __name__")[0]
    call = "            logits, hidden = model(x, hidden)\n"
    if call not in train:
        sys.exit(f"bench: {call.strip()!r} is not in the training function of char_rnn.py")
    cut = "            if hidden is not None:\n                hidden = repackage_hidden(hidden)\n"
    return ("import torch\nimport torch.nn.functional as F\n\n"
            "from model import CharRNN, repackage_hidden\n\n\n"
            + train.replace(call, cut + call).rstrip() + "\n\n\n")


TIMEOUT = 120
"""Seconds an edit that changes what train.py sees may take to change its diagnostics."""
TRAIN_MAIN = '''

if __name__ == "__main__":
    train(CharRNN(32), torch.randint(0, 32, (2, 64)))
'''


def train_text(min_lines: int, main_call: bool = True) -> str:
    """``train.py``: :func:`train_loop`, generated training code, a ``__main__`` call
    (``main_call``: the model of ``model.py`` is then built by module-level code)."""
    return train_loop() + training_file(max(0, min_lines - 30)).rstrip() + "\n" + \
        (TRAIN_MAIN if main_call else "")


def position(text: str, needle: str) -> tuple[int, int]:
    """(0-based line, column) of the one place ``needle`` stands in ``text``."""
    if text.count(needle) != 1:
        sys.exit(f"bench: {needle!r} is not in model.py exactly once")
    before = text[:text.index(needle)]
    return before.count("\n"), len(before) - (before.rfind("\n") + 1)


async def quiet(session: Session, seconds: float) -> None:
    """Wait until the server has published nothing for ``seconds``."""
    while True:
        count = sum(map(len, session.published.values()))
        await asyncio.sleep(seconds)
        if sum(map(len, session.published.values())) == count:
            return


class Project:
    """The two files on disk and open in one server; ``model.py``'s buffer edited."""

    def __init__(self, session: Session, folder: Path, model: str):
        self.session, self.model = session, model
        self.model_uri = (folder / "model.py").as_uri()
        self.train_uri = (folder / "train.py").as_uri()
        self.version = 1

    def edit(self, needle: str, replacement: str) -> asyncio.Future:
        """Replace the one ``needle`` of ``model.py`` by ``replacement`` (a didChange);
        the future is ``model.py``'s diagnostics of that version."""
        line, column = position(self.model, needle)
        self.model = self.model.replace(needle, replacement)
        self.version += 1
        return self.session.change(self.model_uri, self.version, line, column,
                                   column + len(needle), replacement)

    def train_findings(self) -> int:
        return len(self.session.published[self.train_uri][-1].diagnostics)


async def measure(train: str, edits: int, settle: float, debounce_ms: int
                  ) -> tuple[list[float], tuple[int, int], dict[str, tuple[int, int]]]:
    """Milliseconds of the dependent edits, the findings in ``train.py`` (with, without
    the detach), and for each kind of independent edit: ``train.py``'s publishes after
    those edits, and how many of them changed its diagnostics."""
    with tempfile.TemporaryDirectory(prefix="gg-import-bench-") as tmp:
        folder = Path(tmp)
        model = model_text()
        (folder / "model.py").write_text(model, encoding="utf-8")
        (folder / "train.py").write_text(train, encoding="utf-8")
        session = await Session.start(debounce_ms, root=str(folder))
        project = Project(session, folder, model)
        opened = [session.open(project.model_uri, model), session.open(project.train_uri, train)]
        await asyncio.wait_for(asyncio.gather(*opened), 600)
        await quiet(session, 1.0)  # the workspace's background work, if any, published
        findings = {True: project.train_findings()}  # by: the helper detaches
        latencies = []
        for n in range(edits + edits % 2):  # an even count: the helper ends as it began
            await quiet(session, 0.2)
            old = session.published[project.train_uri][-1].diagnostics
            arrived = session.expect(project.train_uri, lambda p: p.diagnostics != old)
            start = time.perf_counter()
            if n % 2:
                project.edit("return h\n", "return h.detach()\n")
            else:
                project.edit("return h.detach()", "return h")
            try:
                latency = ((await asyncio.wait_for(arrived, TIMEOUT)).at - start) * 1000
            except asyncio.TimeoutError:
                sys.exit(f"bench: train.py's diagnostics did not change within {TIMEOUT} s "
                         f"of the helper's edit {n + 1}")
            if n < edits:
                latencies.append(latency)
            findings.setdefault(n % 2 == 1, project.train_findings())
        await quiet(session, 1.0)
        settle = max(settle, 3 * percentile(latencies, 50) / 1000)
        independent = {}
        for kind, (needle, replacement) in {
                "comment in model.py": ("return h.detach()", "return h.detach()  # cut"),
                "body of scaled (never called)": ("x * factor", "x * factor * 1.0")}.items():
            published = changed = 0
            for n in range(edits + edits % 2):
                before = list(session.published[project.train_uri])
                if n % 2:
                    own = project.edit(replacement, needle)
                else:
                    own = project.edit(needle, replacement)
                await asyncio.wait_for(own, 600)
                await asyncio.sleep(settle)
                after = session.published[project.train_uri][len(before):]
                published += len(after)
                last = before[-1].diagnostics
                for entry in after:
                    changed += entry.diagnostics != last
                    last = entry.diagnostics
            independent[kind] = (published, changed)
        await session.stop()
    return latencies, (findings[True], findings[False]), independent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=2000,
                    help="least lines of train.py (default 2000)")
    ap.add_argument("--edits", type=int, default=10, help="edits of each kind (default 10)")
    ap.add_argument("--settle", type=float, default=1.0,
                    help="seconds to wait for publishes after an independent edit (default 1, "
                         "at least 3x the dependent p50)")
    ap.add_argument("--debounce", type=int, default=0, help="debounceMs for the server (default 0)")
    ap.add_argument("--no-main-call", action="store_true",
                    help="train.py without its __main__ call: no module-level code builds "
                         "model.py's model (what the module body builds from an imported "
                         "module keys every function's reuse on that module)")
    a = ap.parse_args()
    if a.edits < 1:
        ap.error("--edits must be at least 1")
    train = train_text(a.lines, main_call=not a.no_main_call)
    latencies, (detached, attached), independent = asyncio.run(
        measure(train, a.edits, a.settle, a.debounce))
    parse = parse_ms(train)
    p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
    print(f"model.py edited, train.py ({train.count(chr(10)):,} lines) open beside it, "
          f"debounceMs={a.debounce}, {a.edits} edits of each kind"
          + (", train.py without its __main__ call" if a.no_main_call else ""))
    print(f"helper stops/starts detaching -> train.py's changed publishDiagnostics: "
          f"p50 {p50:.0f} ms, p95 {p95:.0f} ms; one parse of train.py {parse:.0f} ms: "
          f"p50 {p50 / parse:.2f}x, p95 {p95 / parse:.2f}x (target p50 <= 0.2x)")
    print(f"train.py findings: {detached} with the detach, {attached} without")
    for kind, (published, changed) in independent.items():
        print(f"{kind}: train.py published {published} times after {a.edits} edits, "
              f"{changed} with changed diagnostics (target: none published)")


if __name__ == "__main__":
    main()
