#!/usr/bin/env python3
"""Start-up of ``gradguard lsp``: spawning it to its ``initialize`` reply. Not a test.

    python bench/server_start.py               # median of 10 of each
    python bench/server_start.py --runs 20

The server is started over stdio as an editor starts it (the ``gradguard`` script beside
this Python, else ``python -m gradguard lsp``); each run is timed from spawning the
process to receiving the reply to ``initialize``. Beside it, in the same run and
interleaved with it: a fresh ``python -c "import libcst"`` from spawn to exit (what
importing the parser alone costs a new process). Issue 7's target: the ratio <= 2.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

from lsprotocol import types as t
from pygls.lsp.client import LanguageClient


def server_command() -> list[str]:
    """How an editor would start the server from this Python's environment."""
    script = Path(sys.executable).with_name("gradguard")
    return [str(script), "lsp"] if script.exists() else [sys.executable, "-m", "gradguard", "lsp"]


async def _start_ms(argv: list[str]) -> float:
    client = LanguageClient("gradguard-bench", "1")
    start = time.perf_counter()
    await client.start_io(*argv)
    await client.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities()))
    elapsed = (time.perf_counter() - start) * 1000
    client.initialized(t.InitializedParams())
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return elapsed


def start_ms(argv: list[str]) -> float:
    """Milliseconds from spawning ``argv`` (a stdio language server) to its initialize reply."""
    return asyncio.run(_start_ms(argv))


def import_libcst_ms() -> float:
    """Milliseconds from spawning ``python -c "import libcst"`` to its exit."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import libcst"], check=True)
    return (time.perf_counter() - start) * 1000


def measure(runs: int) -> tuple[float, float]:
    """Medians (ms) over ``runs`` interleaved runs: server start, libcst import."""
    server, libcst = [], []
    argv = server_command()
    for _ in range(runs):
        server.append(start_ms(argv))
        libcst.append(import_libcst_ms())
    return statistics.median(server), statistics.median(libcst)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=10, help="runs of each (default 10)")
    a = ap.parse_args()
    server, libcst = measure(a.runs)
    print(f"{' '.join(server_command())}: spawn -> initialize reply, median of {a.runs}")
    print(f"{'server start ms':>15} {'import libcst ms':>16} {'ratio':>6}")
    print(f"{server:>15.0f} {libcst:>16.0f} {server / libcst:>6.2f}")


if __name__ == "__main__":
    main()
