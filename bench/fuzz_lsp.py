#!/usr/bin/env python3
"""Edit-fuzz ``gradguard lsp`` for longer than CI does, and print what survived. Not a test.

    python bench/fuzz_lsp.py                        # 400 scripts, a random seed
    python bench/fuzz_lsp.py --scripts 1000 --seed 7

Plays hypothesis-generated edit scripts against one real server over stdio, with every
check of tests/robustness/edit_fuzz.py (server up, every request answered, every
publishDiagnostics on the current version and inside its text, final diagnostics equal
to ``gradguard check --format json``, every fix of the final text safe). Scripts are
bigger than in CI (3-8 batches of 4-20 edits). Prints the seed first (rerun a failure
with ``--seed``), a progress line every 50 scripts, and at the end the figures:
edits survived, requests answered, texts compared with the CLI, fixes checked. On the
first violation hypothesis shrinks it and prints the smallest failing script; the exit
status is then 1.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "robustness"))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

import edit_fuzz  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scripts", type=int, default=400, help="scripts to play (400)")
    parser.add_argument("--seed", type=int, default=None, help="hypothesis seed (random)")
    parser.add_argument("--no-shrink", action="store_true",
                        help="report the first failure as found, without shrinking it")
    args = parser.parse_args()
    chosen = args.seed if args.seed is not None else random.randrange(2**32)
    print(f"fuzz_lsp: seed {chosen}, {args.scripts} scripts", flush=True)
    phases = [Phase.explicit, Phase.generate] + ([] if args.no_shrink else [Phase.shrink])
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="gg-fuzz-") as folder:
        session = edit_fuzz.Session(Path(folder))

        @seed(chosen)
        @settings(max_examples=args.scripts, database=None, deadline=None, phases=phases,
                  suppress_health_check=list(HealthCheck))
        @given(edit_fuzz.scripts(min_batches=3, max_batches=8, min_edits=4, max_edits=20))
        def play(script):
            session.play(script)
            if session.stats.scripts % 50 == 0:
                print(f"  {session.stats.line()} ({time.monotonic() - started:.0f} s)",
                      flush=True)

        failed = False
        try:
            play()
        except Exception:
            failed = True
            raise
        finally:
            elapsed = time.monotonic() - started
            print(f"fuzz_lsp: {'FAILED' if failed else 'passed'} after {elapsed:.0f} s: "
                  f"{session.stats.line()}; server crashes: {len(session.crashes)}",
                  flush=True)
            session.close()
    return 1 if session.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
