#!/usr/bin/env python3
"""Start-up of ``gradguard lsp`` beside a bare pygls server's: spawn to ``initialize``
reply. Not a test.

    python bench/server_start.py               # 10 runs of each
    python bench/server_start.py --runs 20

The server is started over stdio as an editor starts it (the ``gradguard`` script beside
this Python, else ``python -m gradguard lsp``); each run is a fresh process, timed from
spawning it to receiving the reply to ``initialize``. Beside it, interleaved with it in
the same run: the honest floor, a bare pygls server (:data:`BARE_SERVER`: a script that
imports only pygls, starts over stdio and answers ``initialize`` with pygls' defaults),
timed the same way; and a fresh ``python -c "import libcst"`` from spawn to exit (what
importing the parser alone costs a new process, issue 7's old yardstick). Printed: the
best and the median of each, and GradGuard's start over the bare server's (issue 14's
target: <= 1.2x, medians).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types as t
from pygls.lsp.client import LanguageClient

BARE_SERVER = ("from pygls.lsp.server import LanguageServer\n"
               "LanguageServer('bare-pygls', '1').start_io()\n")
"""The bare pygls server (``python -c``): nothing imported but pygls (and what pygls
itself imports)."""


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


@dataclass
class Starts:
    """Milliseconds of each run: GradGuard's server, the bare pygls server, libcst import."""
    server: list[float]
    bare: list[float]
    libcst: list[float]

    def ratio(self) -> float:
        """GradGuard's median start over the bare pygls server's."""
        return statistics.median(self.server) / statistics.median(self.bare)


def measure(runs: int) -> Starts:
    """``runs`` interleaved runs of each (fresh processes)."""
    starts = Starts([], [], [])
    argv = server_command()
    for _ in range(runs):
        starts.server.append(start_ms(argv))
        starts.bare.append(start_ms([sys.executable, "-c", BARE_SERVER]))
        starts.libcst.append(import_libcst_ms())
    return starts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=10, help="runs of each (default 10)")
    a = ap.parse_args()
    if a.runs < 1:
        ap.error("--runs must be at least 1")
    starts = measure(a.runs)
    print(f"spawn -> initialize reply (libcst: spawn -> exit), fresh processes, "
          f"{a.runs} interleaved runs of each")
    rows = ((" ".join(server_command()), starts.server),
            ("bare pygls server (python -c)", starts.bare),
            ('python -c "import libcst"', starts.libcst))
    width = max(len(name) for name, _ in rows)
    print(f"{'':<{width}} {'best ms':>8} {'median ms':>10}")
    for name, times in rows:
        print(f"{name:<{width}} {min(times):>8.0f} {statistics.median(times):>10.0f}")
    libcst = statistics.median(starts.server) / statistics.median(starts.libcst)
    print(f"GradGuard / bare pygls: {starts.ratio():.2f}x (medians; best: "
          f"{min(starts.server) / min(starts.bare):.2f}x; target <= 1.2x), GradGuard / "
          f"import libcst: {libcst:.2f}x")


if __name__ == "__main__":
    main()
