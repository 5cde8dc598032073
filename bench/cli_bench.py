#!/usr/bin/env python3
"""Time ``gradguard check`` over a folder and print lines per second. Not a test.

    python bench/cli_bench.py                      # a generated tree of >= 100k lines
    python bench/cli_bench.py --lines 300000 --jobs 1 2
    python bench/cli_bench.py --folder path/to/training/code

Without ``--folder`` the tree is generated reproducibly in a temporary folder: the
``.py`` files of ``examples/`` and of ``../shared/cases`` (when present), in name
order, copied round after round into ``copy_NNN/`` folders until the tree holds at
least ``--lines`` lines. Each row runs ``python -m gradguard check --format json -q``
in a fresh process (so it includes start-up and imports) and reports the best of
``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = (ROOT / "examples", ROOT.parent / "shared" / "cases")


def source_files() -> list[Path]:
    """The files the generated tree is made of, in a fixed order."""
    return [p for d in SOURCES if d.is_dir() for p in sorted(d.rglob("*.py"))]


def generate(target: Path, min_lines: int) -> tuple[int, int]:
    """Fill ``target`` with copies of :func:`source_files` until it holds at least
    ``min_lines`` lines; returns (files, lines)."""
    sources = [(p, p.read_bytes()) for p in source_files()]
    if not sources:
        sys.exit(f"cli_bench: no source files in {', '.join(map(str, SOURCES))}")
    files = lines = 0
    round_ = 0
    while lines < min_lines:
        for path, data in sources:
            dest = target / f"copy_{round_:03d}" / f"{files:05d}_{path.name}"
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
            files += 1
            lines += data.count(b"\n")
            if lines >= min_lines:
                break
        round_ += 1
    return files, lines


def count(folder: Path) -> tuple[int, int]:
    """(files, lines) of the ``.py`` files under ``folder``."""
    paths = list(folder.rglob("*.py"))
    return len(paths), sum(p.read_bytes().count(b"\n") for p in paths)


def time_check(folder: Path, jobs: int) -> tuple[float, int]:
    """Wall-clock seconds of one ``gradguard check`` run over ``folder``, and its exit status."""
    argv = [sys.executable, "-m", "gradguard", "check", "--format", "json", "-q",
            "-j", str(jobs), str(folder)]
    start = time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, proc.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--folder", type=Path, help="time this folder instead of a generated tree")
    ap.add_argument("--lines", type=int, default=100_000,
                    help="size of the generated tree (default: 100000)")
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, os.cpu_count() or 1],
                    help="worker counts to time (default: 1 and the CPU count)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per row; the best counts")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gg-bench-") as tmp:
        folder = a.folder or Path(tmp)
        files, lines = count(folder) if a.folder else generate(folder, a.lines)
        print(f"{folder}: {files} files, {lines} lines")
        print(f"{'jobs':>4}  {'lines':>8}  {'seconds':>8}  {'lines/s':>9}  exit")
        for jobs in dict.fromkeys(a.jobs):
            runs = [time_check(folder, jobs) for _ in range(a.repeat)]
            seconds, status = min(runs)
            print(f"{jobs:>4}  {lines:>8}  {seconds:>8.2f}  {lines / seconds:>9.0f}  {status}")


if __name__ == "__main__":
    main()
