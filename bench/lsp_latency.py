#!/usr/bin/env python3
"""As-you-type latency of ``gradguard lsp`` on every shape of file (issue 14). Not a test.

    python bench/lsp_latency.py                          # all five shapes, 20 edits a position
    python bench/lsp_latency.py --shapes training class --edits 10   # a quick run
    python bench/lsp_latency.py --lines 500 5000 --shapes scripts --debounce 150
    python bench/lsp_latency.py --shapes training --memory-edits 1000  # + memory growth
    python bench/lsp_latency.py --hover                  # + hovers during the first analysis

The shapes (bench/training_code.py, the same text on every run): ``training`` (the
benchmark's generated training code: copies of the examples, functions and classes),
``scripts`` (training scripts with module-level loops, one after another), ``guarded``
(the same, each script's code in a ``main()`` behind ``if __name__ == "__main__":``),
``real`` (deepspeed 0.19.8 ``deepspeed/runtime/engine.py`` as it is, downloaded once
into the user cache folder), ``class`` (one class of that many lines). The generated
ones have at least ``--lines`` lines (default 5,000).

For each shape the real server is started over stdio (``python -m gradguard.lsp``), as
VS Code would start it, and the file is opened: the time from sending ``didOpen`` to
the first ``publishDiagnostics`` is the ``didOpen`` column (it includes what the server
loads on its first analysis); ``warm didOpen`` is the same text opened as a second
document after the edits (a new document's analysis in a warm server). Then, at each of
three edit positions, ``--edits`` one-line edits (a trailing comment typed and deleted
at the end of a statement) are sent one at a time, each timed from sending the
``didChange`` to receiving the ``publishDiagnostics`` of that version. The positions:
the middle one of the statements (a) in a top-level function, (b) in a method (a
function of a class), (c) at module level (outside any function or class); "-" when
the shape has none. The debounce is ``--debounce`` ms (default 0, so the table shows
the analysis, not the wait).

Every figure is printed over one ``libcst.parse_module`` of the same file (median of 3,
timed in this process in the same run), the ratios issue 14 sets targets for (p50 <=
0.1x, p95 <= 0.5x; first diagnostics <= 1.5x); a second table gives the milliseconds.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

from lsprotocol import types as t
from pygls.lsp.client import LanguageClient

from training_code import one_class_file, real_module, scripts_file, training_file

SHAPES: dict[str, tuple[str, Callable[[int], str]]] = {
    "training": ("generated training code", training_file),
    "scripts": ("scripts, module-level loops", scripts_file),
    "guarded": ("scripts in __main__ guards", lambda lines: scripts_file(lines, guarded=True)),
    "real": ("deepspeed runtime/engine.py", lambda lines: real_module()),
    "class": ("one class", one_class_file),
}
"""Name -> (row label, text of at least that many lines)."""
POSITIONS = {"function": "in a function", "method": "in a method", "module": "at module level"}
"""Edit position -> column title, in the table's order."""


_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try,
             ast.TryStar, ast.Match)


def statement_ends(text: str) -> dict[str, list[int]]:
    """The 0-based last lines of the simple statements of ``text`` (no docstrings) by
    where they stand (:data:`POSITIONS`), each list sorted: a trailing comment typed
    there edits that code."""
    ends: dict[str, set[int]] = {kind: set() for kind in POSITIONS}

    def walk(node: ast.AST, kind: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                walk(child, {"module": "function", "class": "method"}.get(kind, kind))
            elif isinstance(child, ast.ClassDef):
                walk(child, "class" if kind == "module" else kind)
            elif isinstance(child, ast.stmt) and not isinstance(child, _COMPOUND):
                docstring = isinstance(child, ast.Expr) and isinstance(child.value, ast.Constant)
                if kind != "class" and not docstring:
                    ends[kind].add(child.end_lineno - 1)
            elif isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case)):
                walk(child, kind)

    walk(ast.parse(text), "module")
    return {kind: sorted(lines) for kind, lines in ends.items()}


def edit_lines(text: str) -> dict[str, int | None]:
    """The line to edit at each position (:data:`POSITIONS`): the middle one of that
    kind's statement ends (:func:`statement_ends`), None when there is none."""
    return {kind: lines[len(lines) // 2] if lines else None
            for kind, lines in statement_ends(text).items()}


def parse_ms(text: str) -> float:
    """Median wall-clock milliseconds of three ``libcst.parse_module(text)``."""
    import libcst

    times = []
    for _ in range(3):
        start = time.perf_counter()
        libcst.parse_module(text)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


@dataclass
class Published:
    """One ``publishDiagnostics``: when it arrived (``perf_counter``), for which version."""
    at: float
    version: int | None
    diagnostics: list[t.Diagnostic]


@dataclass
class Session:
    """A ``gradguard lsp`` started over stdio, and what it published, by URI."""
    client: LanguageClient
    published: dict[str, list[Published]] = field(default_factory=dict)
    waiting: list[tuple[str, Callable[[Published], bool], asyncio.Future]] = field(
        default_factory=list)

    @classmethod
    async def start(cls, debounce_ms: int, root: str | None = None) -> Session:
        """The server, initialized with ``debounceMs`` and (a folder path) a workspace."""
        session = cls(LanguageClient("gradguard-bench", "1"))

        @session.client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: t.PublishDiagnosticsParams) -> None:
            entry = Published(time.perf_counter(), params.version, params.diagnostics)
            session.published.setdefault(params.uri, []).append(entry)
            for waiter in [w for w in session.waiting if w[0] == params.uri and w[1](entry)]:
                session.waiting.remove(waiter)
                if not waiter[2].done():
                    waiter[2].set_result(entry)

        await session.client.start_io(sys.executable, "-m", "gradguard.lsp")
        folders = None if root is None else [t.WorkspaceFolder(f"file://{root}", "bench")]
        await session.client.initialize_async(t.InitializeParams(
            capabilities=t.ClientCapabilities(), workspace_folders=folders,
            root_uri=folders[0].uri if folders else None,
            initialization_options={"debounceMs": debounce_ms}))
        session.client.initialized(t.InitializedParams())
        return session

    def expect(self, uri: str, condition: Callable[[Published], bool]) -> asyncio.Future:
        """The next ``publishDiagnostics`` for ``uri`` that meets ``condition``."""
        future = asyncio.get_running_loop().create_future()
        self.waiting.append((uri, condition, future))
        return future

    def open(self, uri: str, text: str) -> asyncio.Future:
        """Send ``didOpen`` (version 1); the future is its first diagnostics."""
        future = self.expect(uri, lambda p: p.version == 1)
        self.client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(
            uri=uri, language_id="python", version=1, text=text)))
        return future

    def change(self, uri: str, version: int, line: int, start: int, end: int,
               text: str) -> asyncio.Future:
        """Send ``didChange`` to ``version``: columns ``start``-``end`` of ``line``
        become ``text``; the future is that version's diagnostics."""
        future = self.expect(uri, lambda p: p.version == version)
        self.client.text_document_did_change(t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[t.TextDocumentContentChangePartial(
                range=t.Range(t.Position(line, start), t.Position(line, end)), text=text)]))
        return future

    @property
    def pid(self) -> int:
        return self.client._server.pid  # (pygls keeps the process there)

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


@dataclass
class Run:
    """What one shape's run measured (milliseconds)."""
    open_ms: float  # the first document of a fresh server
    warm_open_ms: float  # the same text as a second document, after the edits
    edits: dict[str, list[float]]  # position -> latencies (empty: no such line)
    findings: int  # diagnostics of the last version
    hovers: list[float]  # hovers answered while the first analysis ran


URI = "file:///tmp/gradguard-bench/train.py"
SECOND_URI = "file:///tmp/gradguard-bench/again.py"


async def measure(text: str, edits: int, debounce_ms: int, positions: tuple[str, ...],
                  hover: bool = False, after_edit: Callable[[int, int], None] | None = None
                  ) -> Run:
    """Open ``text`` in a fresh server and send ``edits`` one-line edits at each of
    ``positions`` (:func:`edit_lines`). ``hover``: send hovers while the first analysis
    runs (they share the server with it, so the open time is then not alone).
    ``after_edit(edit number from 1, server pid)`` runs when each edit's diagnostics
    have arrived (outside the timing). Last, ``text`` is opened again as a second
    document of the same server (the warm open time)."""
    session = await Session.start(debounce_ms)
    start = time.perf_counter()
    opened = session.open(URI, text)
    hovers = []
    while hover and not opened.done():
        sent = time.perf_counter()
        await session.client.text_document_hover_async(t.HoverParams(
            t.TextDocumentIdentifier(URI), t.Position(0, 0)))
        if not opened.done():
            hovers.append((time.perf_counter() - sent) * 1000)
    open_ms = ((await asyncio.wait_for(opened, 600)).at - start) * 1000
    lines, where = text.splitlines(), edit_lines(text)
    version, done, latencies = 1, 0, {}
    for kind in positions:
        latencies[kind] = []
        if where[kind] is None:
            continue
        line, column = where[kind], len(lines[where[kind]])
        for n in range(edits + edits % 2):  # an even count: the line ends as it began
            version += 1
            typed = f"  # edit {version}"  # a keystroke-sized edit: a comment, then undone
            start = time.perf_counter()
            arrived = session.change(URI, version, line, column,
                                     column + (len(typed) if n % 2 else 0),
                                     "" if n % 2 else typed)
            latency = ((await asyncio.wait_for(arrived, 600)).at - start) * 1000
            if n < edits:
                latencies[kind].append(latency)
                done += 1
                if after_edit is not None:
                    after_edit(done, session.pid)
    findings = len(session.published[URI][-1].diagnostics)
    start = time.perf_counter()
    warm_open_ms = ((await asyncio.wait_for(session.open(SECOND_URI, text), 600)).at
                    - start) * 1000
    await session.stop()
    return Run(open_ms, warm_open_ms, latencies, findings, hovers)


def edit_latencies(text: str, edits: int, debounce_ms: int = 0,
                   after_edit: Callable[[int, int], None] | None = None) -> list[float]:
    """Milliseconds of ``edits`` one-line edits in a function of ``text`` (issue 7's
    figure, the first column of the table)."""
    return asyncio.run(measure(text, edits, debounce_ms, ("function",),
                               after_edit=after_edit)).edits["function"]


def rss_kib(pid: int) -> int:
    """Resident memory of process ``pid`` in KiB (``VmRSS`` of /proc/PID/status; Linux)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def memory_growth(text: str, edits: int) -> tuple[int, int]:
    """Resident memory (KiB) of the server after the first of ``edits`` one-line edits
    of ``text`` (in a function, as :func:`edit_latencies`) and after the last."""
    samples: dict[int, int] = {}

    def sample(edit: int, pid: int) -> None:
        if edit in (1, edits):
            samples[edit] = rss_kib(pid)

    edit_latencies(text, edits, 0, sample)
    return samples[1], samples[edits]


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (0-100) of ``values``, nearest-rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def cells(run: Run, scale: float, digits: int) -> list[str]:
    """The table cells of ``run``: p50 / p95 of each position, then the open time, each
    divided by ``scale``."""
    row = [f"{percentile(v, 50) / scale:.{digits}f} / {percentile(v, 95) / scale:.{digits}f}"
           if v else "-" for v in run.edits.values()]
    return row + [f"{ms / scale:.{digits}f}" for ms in (run.open_ms, run.warm_open_ms)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", nargs="+", choices=list(SHAPES), default=list(SHAPES),
                    help="file shapes, in this order (default: all five)")
    ap.add_argument("--lines", type=int, nargs="+", default=[5000],
                    help="sizes of the generated shapes (default: 5000; the real module "
                         "is always as it is)")
    ap.add_argument("--edits", type=int, default=20,
                    help="one-line edits at each position (default 20)")
    ap.add_argument("--positions", nargs="+", choices=list(POSITIONS), default=list(POSITIONS),
                    help="edit positions (default: all three)")
    ap.add_argument("--debounce", type=int, default=0, help="debounceMs for the server (default 0)")
    ap.add_argument("--hover", action="store_true",
                    help="also time hovers sent while the first analysis runs (their "
                         "median, a last column; the open time then shares the server)")
    ap.add_argument("--memory-edits", type=int, default=0, metavar="N",
                    help="then send N edits to the first shape at the largest size and print "
                         "the server's resident memory after the first and after the last "
                         "(default: off)")
    a = ap.parse_args()
    if a.edits < 1:
        ap.error("--edits must be at least 1")
    texts = [(SHAPES[s][0], SHAPES[s][1](size)) for s in a.shapes
             for size in (a.lines if s != "real" else a.lines[:1])]
    results = []
    for label, text in texts:
        run = asyncio.run(measure(text, a.edits, a.debounce, tuple(a.positions), a.hover))
        results.append((f"{label}, {text.count(chr(10)):,} lines", parse_ms(text), run))
        print(f"measured: {results[-1][0]}", file=sys.stderr, flush=True)
    titles = [POSITIONS[p] for p in a.positions] + ["didOpen", "warm didOpen"]
    width = max(len(r[0]) for r in results)
    for heading, scaled, digits in (
            ("over one libcst.parse_module of the same file (p50 / p95; didOpen: to the "
             "first diagnostics, in a fresh server and as a second document)", True, 2),
            ("milliseconds (parse: one libcst.parse_module, median of 3)", False, 0)):
        print(f"\ndidChange -> publishDiagnostics of that version, {a.edits} one-line "
              f"edits a position, debounceMs={a.debounce}; {heading}")
        extra = [] if scaled else ["findings"] + (["hover ms (busy)"] if a.hover else [])
        header = [f"{'shape':<{width}}", f"{'parse ms':>8}", *(f"{h:>15}" for h in titles),
                  *(f"{h:>15}" for h in extra)]
        print(" ".join(header))
        print("-" * len(" ".join(header)))
        for name, parse, run in results:
            row = cells(run, parse if scaled else 1, digits)
            if not scaled:
                row.append(str(run.findings))
                if a.hover:
                    row.append(f"{statistics.median(run.hovers):.1f} (n={len(run.hovers)})"
                               if run.hovers else "-")
            print(" ".join([f"{name:<{width}}", f"{parse:>8.0f}", *(f"{c:>15}" for c in row)]))
    if a.memory_edits:
        text = SHAPES[a.shapes[0]][1](max(a.lines))
        first, last = memory_growth(text, a.memory_edits)
        print(f"\nserver RSS, {text.count(chr(10))}-line file: {first / 1024:.1f} MiB after the "
              f"first edit, {last / 1024:.1f} MiB after {a.memory_edits}: {last / first:.2f}x")


if __name__ == "__main__":
    main()
