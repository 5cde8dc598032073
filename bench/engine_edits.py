"""The incremental engine's cost of a one-line edit, per file shape and edit position,
beside one ``libcst.parse_module`` of the same text (no LSP, no debounce: the engine
alone).

    python bench/engine_edits.py                      # every shape, 5,000 lines, 9 edits each
    python bench/engine_edits.py --shapes scripts --positions module --edits 5
    python bench/engine_edits.py --shapes class --positions module --profile 25

Each edit types (or removes) a trailing comment at the end of a simple statement near
the middle of the file: inside a top-level function (``function``), inside a method
(``method``), or outside any function (``module``). Printed per shape and position: the
p50 and max of ``Engine(incremental=True).analyze`` over the edits divided by the
median of three parses, and ``engine.last_run`` of the last edit (roots run and reused,
characters parsed). ``--profile N`` prints cProfile's top N functions of one edit.
"""

from __future__ import annotations

import argparse
import ast
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

import training_code  # noqa: E402
from lsp_latency import parse_ms  # noqa: E402  (the same yardstick as the LSP benchmark)

SHAPES = {
    "training": lambda n: training_code.training_file(n),
    "scripts": lambda n: training_code.scripts_file(n),
    "guarded": lambda n: training_code.scripts_file(n, guarded=True),
    "real": lambda n: training_code.real_module(),
    "class": lambda n: training_code.one_class_file(n),
}
POSITIONS = ("function", "method", "module")


def statement_ends(text: str) -> dict[str, list[int]]:
    """0-based last lines of the simple statements of ``text`` by position: in a
    top-level function, in a method, outside any function."""
    out: dict[str, list[int]] = {p: [] for p in POSITIONS}

    def walk(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = "method" if where == "class" else "function" if where == "module" \
                    else where
                walk(child, inner)
            elif isinstance(child, ast.ClassDef):
                walk(child, "class" if where == "module" else where)
            elif isinstance(child, ast.stmt) and not hasattr(child, "body"):
                if where in POSITIONS and child.end_lineno == child.lineno:
                    out[where].append(child.end_lineno - 1)
            elif isinstance(child, ast.stmt):
                walk(child, where)

    walk(ast.parse(text), "module")
    return out


def edited(lines: list[str], line: int, version: int) -> str:
    """The text with a trailing comment on ``line`` for even versions, without for odd."""
    out = list(lines)
    if version % 2 == 0:
        out[line] = out[line].rstrip("\n") + f"  # edit {version}\n"
    return "".join(out)


def measure(text: str, line: int, edits: int, profile: int = 0):
    """(ms per edit, the engine's last_run) of ``edits`` edits on ``line``."""
    from gradguard.analysis.engine import Engine

    engine = Engine(incremental=True)
    lines = text.splitlines(keepends=True)
    engine.analyze(text)
    times = []
    for version in range(2, edits + 2):
        new = edited(lines, line, version)
        start = time.perf_counter()
        engine.analyze(new)
        times.append((time.perf_counter() - start) * 1000)
    if profile:
        prof = cProfile.Profile()
        prof.enable()
        engine.analyze(edited(lines, line, edits + 2))
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(profile)
    return times, engine.last_run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--edits", type=int, default=9)
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--positions", default=",".join(POSITIONS))
    ap.add_argument("--profile", type=int, default=0, metavar="N")
    a = ap.parse_args()
    print(f"{'shape':10} {'position':9} {'lines':>6} {'parse ms':>9} {'p50 x':>7} "
          f"{'max x':>7}  last_run")
    for shape in a.shapes.split(","):
        text = SHAPES[shape](a.lines)
        ends = statement_ends(text)
        parse = parse_ms(text)
        middle = text.count("\n") // 2
        for position in a.positions.split(","):
            if not ends[position]:
                print(f"{shape:10} {position:9} (none)")
                continue
            line = min(ends[position], key=lambda end: (abs(end - middle), end))
            times, last = measure(text, line, a.edits, a.profile)
            print(f"{shape:10} {position:9} {text.count(chr(10)):6} {parse:9.0f} "
                  f"{statistics.median(times) / parse:7.2f} {max(times) / parse:7.2f}  "
                  f"{last} (line {line + 1})", flush=True)


if __name__ == "__main__":
    main()
