#!/usr/bin/env python3
"""As-you-type latency of ``gradguard lsp``: didChange -> matching publishDiagnostics.
Not a test.

    python bench/lsp_latency.py                   # 500- and 5,000-line files, 50 edits each
    python bench/lsp_latency.py --lines 500 --edits 20 --debounce 150
    python bench/lsp_latency.py --lines 5000 --memory-edits 1000   # + server memory growth

For each size, a training file is generated reproducibly from ``examples/*.py``: copy
after copy, each copy's top-level functions and classes renamed with a suffix (so the
file reads like one long training module with many models and loops, every hazard of
the examples included) until it holds at least the asked-for lines. The real server is
started over stdio (``python -m gradguard.lsp``), as VS Code would start it, the file is
opened, and then ``--edits`` one-line edits in the middle of the file (a trailing comment
typed and deleted on the code line of a function nearest the middle) are sent one at a
time; each is timed from sending the ``didChange`` to receiving the
``publishDiagnostics`` of that version. The debounce is set to ``--debounce`` ms
(default 0, so the table shows the analysis, not the wait). Printed beside each row:
one ``libcst.parse_module`` of the same file (median of 3, measured in this process in
the same run) and the ratio of the two, the figure issue 7 sets targets for. The last
column is the median time of a hover request sent while the first analysis of the file
runs (the engine works in a worker thread; the server keeps answering).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from typing import Callable

from lsprotocol import types as t
from pygls.lsp.client import LanguageClient

from training_code import training_file


def code_line_near(text: str, line: int) -> int:
    """The 0-based line nearest ``line`` that ends a simple statement inside a function:
    a trailing comment typed there edits that function's code (not a docstring or a
    module-level statement)."""
    import ast

    ends = {n.end_lineno - 1 for f in ast.walk(ast.parse(text)) if isinstance(f, ast.FunctionDef)
            for n in ast.walk(f) if isinstance(n, ast.stmt) and not hasattr(n, "body")}
    return min(ends, key=lambda end: (abs(end - line), end))


def parse_ms(text: str) -> float:
    """Median wall-clock milliseconds of three ``libcst.parse_module(text)``."""
    import libcst

    times = []
    for _ in range(3):
        start = time.perf_counter()
        libcst.parse_module(text)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


async def edit_latencies(text: str, edits: int, debounce_ms: int,
                         after_edit: Callable[[int, int], None] | None = None
                         ) -> tuple[list[float], int, list[float]]:
    """Milliseconds from each didChange to its publishDiagnostics, the number of
    diagnostics of the last version, and milliseconds of the hovers answered while the
    first analysis ran. ``after_edit(edit number from 1, server pid)`` runs when each
    edit's diagnostics have arrived (outside the timing)."""
    client = LanguageClient("gradguard-bench", "1")
    waiting: dict[int, asyncio.Future] = {}
    last: list[int] = [0]

    @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: t.PublishDiagnosticsParams) -> None:
        future = waiting.pop(params.version, None)
        last[0] = len(params.diagnostics)
        if future is not None and not future.done():
            future.set_result(time.perf_counter())

    await client.start_io(sys.executable, "-m", "gradguard.lsp")
    await client.initialize_async(t.InitializeParams(
        capabilities=t.ClientCapabilities(), initialization_options={"debounceMs": debounce_ms}))
    client.initialized(t.InitializedParams())
    uri = "file:///tmp/gradguard-bench/train.py"
    loop = asyncio.get_running_loop()
    opened = waiting[1] = loop.create_future()
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(
        uri=uri, language_id="python", version=1, text=text)))
    hovers = []
    while not opened.done():
        start = time.perf_counter()
        await client.text_document_hover_async(t.HoverParams(
            t.TextDocumentIdentifier(uri), t.Position(0, 0)))
        if not opened.done():
            hovers.append((time.perf_counter() - start) * 1000)
    lines = text.splitlines()
    middle = code_line_near(text, len(lines) // 2)
    column = len(lines[middle])
    latencies = []
    for version in range(2, edits + 2):
        waiting[version] = loop.create_future()
        start = time.perf_counter()
        # one keystroke-sized edit: the end of the middle line gets a comment (or loses it)
        new = f"  # edit {version}" if version % 2 == 0 else ""
        old_end = column if version == 2 else column + len(f"  # edit {version - 1}")
        client.text_document_did_change(t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[t.TextDocumentContentChangePartial(
                range=t.Range(t.Position(middle, column), t.Position(middle, old_end)),
                text=new)]))
        latencies.append((await asyncio.wait_for(waiting[version], 600) - start) * 1000)
        if after_edit is not None:
            after_edit(version - 1, client._server.pid)  # (pygls keeps the process there)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return latencies, last[0], hovers


def rss_kib(pid: int) -> int:
    """Resident memory of process ``pid`` in KiB (``VmRSS`` of /proc/PID/status; Linux)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def memory_growth(text: str, edits: int) -> tuple[int, int]:
    """Resident memory (KiB) of the server after the first of ``edits`` one-line edits
    of ``text`` (the same edits as the latency rows) and after the last."""
    samples: dict[int, int] = {}

    def sample(edit: int, pid: int) -> None:
        if edit in (1, edits):
            samples[edit] = rss_kib(pid)

    asyncio.run(edit_latencies(text, edits, 0, sample))
    return samples[1], samples[edits]


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (0-100) of ``values``, nearest-rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, nargs="+", default=[500, 5000],
                    help="sizes of the generated files (default: 500 5000)")
    ap.add_argument("--edits", type=int, default=50, help="one-line edits per file (default 50)")
    ap.add_argument("--debounce", type=int, default=0, help="debounceMs for the server (default 0)")
    ap.add_argument("--memory-edits", type=int, default=0, metavar="N",
                    help="then send N edits to the largest file and print the server's "
                         "resident memory after the first and after the last (default: off)")
    a = ap.parse_args()
    print(f"didChange -> publishDiagnostics, {a.edits} one-line edits, debounceMs={a.debounce}")
    header = (f"{'lines':>6} {'findings':>8} {'p50 ms':>8} {'p95 ms':>8} "
              f"{'libcst parse ms':>15} {'p50/parse':>9} {'p95/parse':>9} "
              f"{'hover ms (busy)':>15}")
    print(header)
    print("-" * len(header))
    for size in a.lines:
        text = training_file(size)
        latencies, findings, hovers = asyncio.run(edit_latencies(text, a.edits, a.debounce))
        hover = f"{statistics.median(hovers):.1f} (n={len(hovers)})" if hovers else "-"
        parse = parse_ms(text)
        p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
        print(f"{text.count(chr(10)):>6} {findings:>8} {p50:>8.1f} {p95:>8.1f} {parse:>15.1f} "
              f"{p50 / parse:>9.2f} {p95 / parse:>9.2f} {hover:>15}")
    if a.memory_edits:
        text = training_file(max(a.lines))
        first, last = memory_growth(text, a.memory_edits)
        print(f"\nserver RSS, {text.count(chr(10))}-line file: {first / 1024:.1f} MiB after the "
              f"first edit, {last / 1024:.1f} MiB after {a.memory_edits}: {last / first:.2f}x")


if __name__ == "__main__":
    main()
