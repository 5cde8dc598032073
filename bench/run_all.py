#!/usr/bin/env python3
"""Every benchmark of issues 7, 13 and 14 in one run, one table: each figure, its
target, pass/fail. Not a test (about half an hour on a loaded 2-core machine: TorchFix
and the module-level edits of the script shapes take the most).

    python bench/run_all.py
    python bench/run_all.py --lines 100000 --edits 20 --memory-edits 1000 --runs 10
    python bench/run_all.py --shapes training real --edits 10 --import-edits 4

Rows (all ratios are between figures measured in this same run):

* as-you-type, each shape of ``--shapes`` (5,000-line files, the real module as it is)
  and each edit position it has: ``didChange`` -> ``publishDiagnostics`` of a one-line
  edit, p50 and p95 over ``--edits`` edits, over one ``libcst.parse_module`` of that
  file; and ``didOpen`` to the first diagnostics over one parse (bench/lsp_latency.py);
* cross-file: an edit of an imported module that changes what the open importer sees,
  to the importer's new diagnostics, p50 over one parse of the importer; and whether
  edits it does not depend on published anything for it (bench/import_latency.py,
  ``--import-edits`` of each kind);
* cold and warm CLI: lines/s of ``gradguard check`` on the generated tree of
  ``--lines`` lines with an empty cache and with the cache it left, over TorchFix's
  lines/s on the same tree (bench/cli_bench.py; best of ``--repeat``, TorchFix once);
* server start: spawn to ``initialize`` reply over a bare pygls server's, medians of
  ``--runs`` (bench/server_start.py);
* memory: the server's resident memory after ``--memory-edits`` one-line edits of the
  5,000-line training file over that after the first (bench/lsp_latency.py).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
from pathlib import Path

import cli_bench
import import_latency
import lsp_latency
import server_start
from training_code import training_file, tree


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=100_000, help="CLI tree size (default 100000)")
    ap.add_argument("--repeat", type=int, default=3, help="GradGuard CLI runs, best counts")
    ap.add_argument("--edits", type=int, default=20,
                    help="latency edits at each position of each shape (default 20)")
    ap.add_argument("--shapes", nargs="+", choices=list(lsp_latency.SHAPES),
                    default=list(lsp_latency.SHAPES), help="file shapes (default: all five)")
    ap.add_argument("--import-edits", type=int, default=10,
                    help="cross-file edits of each kind (default 10)")
    ap.add_argument("--memory-edits", type=int, default=1000, help="memory edits (default 1000)")
    ap.add_argument("--runs", type=int, default=10, help="server starts (default 10)")
    ap.add_argument("--torchfix-venv", type=Path, default=cli_bench.default_torchfix_venv())
    a = ap.parse_args()
    rows: list[tuple[str, str, str, str, bool]] = []  # measure, figures, ratio, target, met

    for shape in a.shapes:
        label, make = lsp_latency.SHAPES[shape]
        text = make(5000)
        run = asyncio.run(lsp_latency.measure(text, a.edits, 0, tuple(lsp_latency.POSITIONS)))
        parse = lsp_latency.parse_ms(text)
        size = f"{label}, {text.count(chr(10))} lines"
        for position, latencies in run.edits.items():
            for p, target in ((50, 0.1), (95, 0.5)) if latencies else ():
                ms = lsp_latency.percentile(latencies, p)
                rows.append((f"edit {lsp_latency.POSITIONS[position]} p{p}, {size}",
                             f"{ms:.0f} ms / parse {parse:.0f} ms", f"{ms / parse:.2f}",
                             f"<= {target}x", ms / parse <= target))
        rows.append((f"didOpen to first diagnostics, {size}",
                     f"{run.open_ms:.0f} ms / parse {parse:.0f} ms", f"{run.open_ms / parse:.2f}",
                     "<= 1.5x", run.open_ms / parse <= 1.5))

    train = import_latency.train_text(2000)
    latencies, _, independent = asyncio.run(
        import_latency.measure(train, a.import_edits, 1.0, 0))
    parse = lsp_latency.parse_ms(train)
    ms = lsp_latency.percentile(latencies, 50)
    rows.append((f"imported module edited, importer re-diagnosed p50, "
                 f"{train.count(chr(10))}-line importer", f"{ms:.0f} ms / parse {parse:.0f} ms",
                 f"{ms / parse:.2f}", "<= 0.2x", ms / parse <= 0.2))
    for kind, (published, changed) in independent.items():
        rows.append((f"importer's publishes after {a.import_edits} edits: {kind}",
                     f"{published} ({changed} changed)", str(published), "0", published == 0))

    torchfix = cli_bench.torchfix_executable(a.torchfix_venv)
    with tempfile.TemporaryDirectory(prefix="gg-bench-") as tmp:
        files, lines = tree(Path(tmp), a.lines)
        cold, warm, reference = cli_bench.measure(Path(tmp), lines, None, a.repeat, torchfix)
    for row, target in ((cold, 5), (warm, 50)):
        ratio = row.rate / reference.rate
        rows.append((f"{row.label}, {files} files, {lines} lines",
                     f"{row.rate:.0f} lines/s / {reference.label} {reference.rate:.0f}",
                     f"{ratio:.2f}", f">= {target}x", ratio >= target))

    starts = server_start.measure(a.runs)
    rows.append((f"server start (median of {a.runs})",
                 f"{statistics.median(starts.server):.0f} ms / bare pygls "
                 f"{statistics.median(starts.bare):.0f} ms", f"{starts.ratio():.2f}", "<= 1.2x",
                 starts.ratio() <= 1.2))

    text = training_file(5000)
    first, last = lsp_latency.memory_growth(text, a.memory_edits)
    rows.append((f"server RSS after {a.memory_edits} edits, {text.count(chr(10))}-line file",
                 f"{last / 1024:.0f} MiB / {first / 1024:.0f} MiB after the first",
                 f"{last / first:.2f}", "<= 1.5x", last / first <= 1.5))

    width = max(len(r[0]) for r in rows), max(len(r[1]) for r in rows)
    print(f"{'measure':<{width[0]}}  {'figures':<{width[1]}}  {'ratio':>7}  {'target':<8} result")
    for name, figures, ratio, target, ok in rows:
        print(f"{name:<{width[0]}}  {figures:<{width[1]}}  {ratio:>7}  {target:<8} "
              f"{'pass' if ok else 'FAIL'}")


if __name__ == "__main__":
    main()
