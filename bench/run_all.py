#!/usr/bin/env python3
"""Every benchmark of issue 7 in one run, one table: each figure, its target, pass/fail.
Not a test (it takes about 15 minutes on a loaded 2-core machine, most of it TorchFix).

    python bench/run_all.py
    python bench/run_all.py --lines 100000 --edits 50 --memory-edits 1000 --runs 10

Rows (all ratios are between figures measured in this same run):

* as-you-type: ``didChange`` -> ``publishDiagnostics`` of a one-line edit in the
  middle of the 5,000-line training file, p50 and p95 over ``--edits`` edits, over
  one ``libcst.parse_module`` of that file (bench/lsp_latency.py);
* cold and warm CLI: lines/s of ``gradguard check`` on the generated tree of
  ``--lines`` lines with an empty cache and with the cache it left, over TorchFix's
  lines/s on the same tree (bench/cli_bench.py; best of ``--repeat``, TorchFix once);
* server start: spawn to ``initialize`` reply over ``python -c "import libcst"``,
  medians of ``--runs`` (bench/server_start.py);
* memory: the server's resident memory after ``--memory-edits`` one-line edits of the
  5,000-line file over that after the first (bench/lsp_latency.py).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import cli_bench
import lsp_latency
import server_start
from training_code import training_file, tree


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=100_000, help="CLI tree size (default 100000)")
    ap.add_argument("--repeat", type=int, default=3, help="GradGuard CLI runs, best counts")
    ap.add_argument("--edits", type=int, default=50, help="latency edits (default 50)")
    ap.add_argument("--memory-edits", type=int, default=1000, help="memory edits (default 1000)")
    ap.add_argument("--runs", type=int, default=10, help="server starts (default 10)")
    ap.add_argument("--torchfix-venv", type=Path, default=cli_bench.default_torchfix_venv())
    a = ap.parse_args()
    rows: list[tuple[str, str, float, str, bool]] = []

    text = training_file(5000)
    latencies = lsp_latency.edit_latencies(text, a.edits)
    parse = lsp_latency.parse_ms(text)
    size = f"{text.count(chr(10))}-line file"
    for p, target in ((50, 0.1), (95, 0.5)):
        ms = lsp_latency.percentile(latencies, p)
        rows.append((f"one-line edit p{p}, {size}",
                     f"{ms:.0f} ms / parse {parse:.0f} ms", ms / parse, f"<= {target}x",
                     ms / parse <= target))

    torchfix = cli_bench.torchfix_executable(a.torchfix_venv)
    with tempfile.TemporaryDirectory(prefix="gg-bench-") as tmp:
        files, lines = tree(Path(tmp), a.lines)
        cold, warm, reference = cli_bench.measure(Path(tmp), lines, None, a.repeat, torchfix)
    for row, target in ((cold, 5), (warm, 50)):
        ratio = row.rate / reference.rate
        rows.append((f"{row.label}, {files} files, {lines} lines",
                     f"{row.rate:.0f} lines/s / {reference.label} {reference.rate:.0f}",
                     ratio, f">= {target}x", ratio >= target))

    server, libcst = server_start.measure(a.runs)
    rows.append((f"server start (median of {a.runs})",
                 f"{server:.0f} ms / import libcst {libcst:.0f} ms", server / libcst, "<= 2x",
                 server / libcst <= 2))

    first, last = lsp_latency.memory_growth(text, a.memory_edits)
    rows.append((f"server RSS after {a.memory_edits} edits, {size}",
                 f"{last / 1024:.0f} MiB / {first / 1024:.0f} MiB after the first",
                 last / first, "<= 1.5x", last / first <= 1.5))

    width = max(len(r[0]) for r in rows), max(len(r[1]) for r in rows)
    print(f"{'measure':<{width[0]}}  {'figures':<{width[1]}}  {'ratio':>7}  {'target':<8} result")
    for name, figures, ratio, target, ok in rows:
        print(f"{name:<{width[0]}}  {figures:<{width[1]}}  {ratio:>7.2f}  {target:<8} "
              f"{'pass' if ok else 'FAIL'}")


if __name__ == "__main__":
    main()
