#!/usr/bin/env python3
"""``gradguard check`` over a tree of training code, cold and warm, beside TorchFix on the
same files in the same run: lines per second and the ratios. Not a test.

    python bench/cli_bench.py                      # a generated tree of >= 100k lines
    python bench/cli_bench.py --lines 300000 --jobs 1 2
    python bench/cli_bench.py --folder path/to/training/code --no-torchfix

Without ``--folder`` the tree is generated reproducibly in a temporary folder by
``training_code.tree``: modules of about 300 lines, each made of renamed copies of the
repository's training programs (``examples/``, ``tests/programs/`` and, when present,
``../shared/cases``), until the tree holds at least ``--lines`` lines. Every copy is a
distinct text, so the cache cannot serve one file's result to another within a run.

Each row runs a fresh process (start-up and imports included) and reports the best of
``--repeat`` runs: ``gradguard check --format json -q`` with an empty cache folder
(cold: every file analysed; ``GRADGUARD_CACHE_DIR`` points to a new temporary folder
each time), then again over the cache the cold runs left (warm: nothing changed, every
result read back). TorchFix (``torchfix PATHS``, once: it takes minutes) runs from its
own virtual environment, made by this script the first time under the user cache
folder (``--torchfix-venv``), because it pins libcst below 1.6 and GradGuard needs
1.9: it is never installed beside GradGuard. ``--jobs`` values are passed to both tools
as ``-j``; without it both use their default (every CPU).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import venv
from dataclasses import dataclass
from pathlib import Path

from training_code import cache_dir, tree

TORCHFIX = "torchfix==0.7.0"
"""The TorchFix release compared against (the newest on PyPI when this was written)."""


def count(folder: Path) -> tuple[int, int]:
    """(files, lines) of the ``.py`` files under ``folder``."""
    paths = list(folder.rglob("*.py"))
    return len(paths), sum(p.read_bytes().count(b"\n") for p in paths)


def _timed(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, int]:
    start = time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start, proc.returncode


def _jobs(jobs: int | None) -> list[str]:
    return [] if jobs is None else ["-j", str(jobs)]


def time_gradguard(folder: Path, jobs: int | None, cache: Path) -> tuple[float, int]:
    """Seconds of one ``gradguard check`` over ``folder`` with ``cache`` as its cache
    folder, and its exit status (1: findings)."""
    argv = [sys.executable, "-m", "gradguard", "check", "--format", "json", "-q",
            *_jobs(jobs), str(folder)]
    return _timed(argv, {**os.environ, "GRADGUARD_CACHE_DIR": str(cache)})


def torchfix_executable(venv_dir: Path) -> Path:
    """The ``torchfix`` of the virtual environment ``venv_dir``, made (with
    :data:`TORCHFIX` installed by pip) if it is not there yet."""
    exe = venv_dir / "bin" / "torchfix"
    if not exe.exists():
        print(f"cli_bench: installing {TORCHFIX} into {venv_dir} ...", file=sys.stderr)
        venv.EnvBuilder(with_pip=True, clear=True).create(venv_dir)
        subprocess.run([str(venv_dir / "bin" / "python"), "-m", "pip", "install", "-q",
                        TORCHFIX], check=True)
    return exe


def torchfix_version(exe: Path) -> str:
    """What ``torchfix --version`` prints (e.g. ``0.7.0``)."""
    return subprocess.run([str(exe), "--version"], capture_output=True, text=True,
                          check=True).stdout.strip()


def time_torchfix(exe: Path, folder: Path, jobs: int | None) -> tuple[float, int]:
    """Seconds of one ``torchfix`` run over ``folder``, and its exit status."""
    return _timed([str(exe), *_jobs(jobs), str(folder)])


@dataclass
class Row:
    """One timed configuration: ``seconds`` (best of the runs) over ``lines`` lines."""

    label: str
    seconds: float
    lines: int
    status: int

    @property
    def rate(self) -> float:
        """Lines per second."""
        return self.lines / self.seconds


def measure(folder: Path, lines: int, jobs: int | None, repeat: int,
            torchfix: Path | None) -> tuple[Row, Row, Row | None]:
    """Cold and warm GradGuard rows and the TorchFix row (None without ``torchfix``)
    over ``folder`` (``lines`` lines), ``jobs`` workers (None: each tool's default)."""
    j = "default" if jobs is None else jobs
    with tempfile.TemporaryDirectory(prefix="gg-bench-cache-") as caches:
        cold_runs = []
        for n in range(repeat):
            cache = Path(caches) / str(n)
            cold_runs.append(time_gradguard(folder, jobs, cache))
        warm_runs = [time_gradguard(folder, jobs, cache) for _ in range(repeat)]
    (cold_s, cold_status), (warm_s, warm_status) = min(cold_runs), min(warm_runs)
    cold = Row(f"gradguard cold (-j {j})", cold_s, lines, cold_status)
    warm = Row(f"gradguard warm (-j {j})", warm_s, lines, warm_status)
    if torchfix is None:
        return cold, warm, None
    seconds, status = time_torchfix(torchfix, folder, jobs)
    return cold, warm, Row(f"torchfix {torchfix_version(torchfix)} (-j {j})", seconds,
                           lines, status)


def print_rows(rows: list[Row], reference: Row | None) -> None:
    """The table: seconds, lines/s, exit status and, with a ``reference``, the ratio of
    each row's lines/s to it."""
    print(f"{'':<28} {'seconds':>8} {'lines/s':>9} {'exit':>4} {'vs TorchFix':>11}")
    for row in rows:
        ratio = f"{row.rate / reference.rate:.1f}x" if reference else "-"
        print(f"{row.label:<28} {row.seconds:>8.2f} {row.rate:>9.0f} {row.status:>4} {ratio:>11}")


def default_torchfix_venv() -> Path:
    """``<user cache folder>/gradguard-bench/torchfix-<version>``."""
    return cache_dir() / TORCHFIX.replace("==", "-")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--folder", type=Path, help="time this folder instead of a generated tree")
    ap.add_argument("--lines", type=int, default=100_000,
                    help="size of the generated tree (default: 100000)")
    ap.add_argument("--jobs", type=int, nargs="+", default=[None],
                    help="worker counts to time (default: each tool's default, every CPU)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="GradGuard runs per row; the best counts (default 3)")
    ap.add_argument("--no-torchfix", action="store_true", help="do not run TorchFix")
    ap.add_argument("--torchfix-venv", type=Path, default=default_torchfix_venv(),
                    help="virtual environment for TorchFix (made if missing; default: "
                         "%(default)s)")
    a = ap.parse_args()
    torchfix = None if a.no_torchfix else torchfix_executable(a.torchfix_venv)
    with tempfile.TemporaryDirectory(prefix="gg-bench-") as tmp:
        folder = a.folder or Path(tmp)
        files, lines = count(folder) if a.folder else tree(folder, a.lines)
        print(f"{folder}: {files} files, {lines} lines")
        for jobs in dict.fromkeys(a.jobs):
            cold, warm, reference = measure(folder, lines, jobs, a.repeat, torchfix)
            print_rows([r for r in (reference, cold, warm) if r], reference)


if __name__ == "__main__":
    main()
