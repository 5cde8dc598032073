"""What the robustness tests share: the program corpus, running the CLI, LSP text
coordinates.

The corpus is every Python program the project has at hand: ``examples/``, the labelled
cases in ``../shared/cases`` (their ``case.py`` and ``fixed.py``; absent on a clean
clone, then left out) and every rule's VALID / INVALID examples.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
SHARED_CASES = ROOT.parent / "shared" / "cases"
CLI = [sys.executable, "-m", "gradguard"]
CLI_TIMEOUT = 900.0  # seconds; generous: a loaded 2-core machine is slow, not wrong


def shared_case_files() -> list[Path]:
    """``case.py`` and ``fixed.py`` of every labelled case (none when ../shared is absent)."""
    if not SHARED_CASES.is_dir():
        return []
    return sorted(p for p in SHARED_CASES.glob("*/*.py") if p.name in ("case.py", "fixed.py"))


def corpus() -> list[tuple[str, str]]:
    """Every program at hand as ``(name, text)``: examples, shared cases, rule examples."""
    from gradguard.rules import all_rules

    out = [(f"examples/{p.name}", p.read_text(encoding="utf-8")) for p in EXAMPLES]
    out += [(f"cases/{p.parent.name}/{p.name}", p.read_text(encoding="utf-8"))
            for p in shared_case_files()]
    for rule in all_rules():
        out += [(f"{rule.code}/invalid{i}", text) for i, text in enumerate(rule.invalid)]
        out += [(f"{rule.code}/valid{i}", text) for i, text in enumerate(rule.valid)]
    return out


def clean_env() -> dict[str, str]:
    """This environment without locale variables (English messages) and NO_COLOR set."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["NO_COLOR"] = "1"
    return env


def run_cli(*args: str, cwd: str | os.PathLike | None = None, timeout: float = CLI_TIMEOUT
            ) -> subprocess.CompletedProcess:
    """``python -m gradguard ARGS`` in a subprocess, text output captured."""
    return subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True,
                          encoding="utf-8", errors="replace", cwd=cwd, env=clean_env(),
                          timeout=timeout)


def cli_in_process(*args: str) -> tuple[int, str, str]:
    """``gradguard ARGS`` run in this process (``gradguard.cli.main``): exit status,
    standard output, standard error. Cheaper than a subprocess for many small runs."""
    from gradguard import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(map(str, args)))
    return code, out.getvalue(), err.getvalue()


_ANALYZE_CHILD = """
import json, sys
from gradguard.analysis import analyze
r = analyze(sys.stdin.buffer.read().decode("utf-8"))
e = r.syntax_error
print(json.dumps({"syntax_error": e and [e.pos.line, e.pos.column, e.message],
                  "findings": [[f.code, f.span.start.line, f.span.start.column]
                               for f in r.findings], "errors": [str(x) for x in r.errors]}))
"""


def analyze_isolated(text: str) -> tuple[int, dict | None, str]:
    """``analyze(text)`` in a child process (a crash there cannot take the tests down):
    its exit status, the result as ``{"syntax_error": [line, column, message] | None,
    "findings": [[code, line, column], ...], "errors": [...]}`` (None if it died), and
    its standard error."""
    proc = subprocess.run([sys.executable, "-c", _ANALYZE_CHILD], input=text.encode("utf-8"),
                          capture_output=True, env=clean_env(), timeout=CLI_TIMEOUT)
    out = proc.stdout.decode("utf-8")
    return (proc.returncode, json.loads(out) if proc.returncode == 0 else None,
            proc.stderr.decode("utf-8", "replace"))


def assert_no_traceback(*outputs: str) -> None:
    """No Python traceback, and no 'internal error', in any of ``outputs``."""
    for text in outputs:
        assert "Traceback (most recent call last)" not in text, text[-4000:]
        assert "internal error" not in text, text[-4000:]


def shape(result, shift: int = 0) -> list:
    """Everything a finding says, line breaks in new text normalised, lines (spans and
    the ``*line`` arguments of messages) moved up by ``shift``: what must not change
    when only line endings or earlier lines change."""
    def span(s):
        return s.shifted(-shift)

    def msg(m):
        return (m.msgid, {k: v - shift if k.endswith("line") and isinstance(v, int) else v
                          for k, v in m.args.items()})
    return [(f.code, span(f.span), msg(f.message),
             [(span(r.span), msg(r.message)) for r in f.related],
             [(msg(x.title), x.preferred, x.applicability,
               [(span(e.span), LINE_BREAK.sub("\n", e.new_text)) for e in x.edits])
              for x in f.fixes]) for f in result.findings]


# ---------------------------------------------------------------- LSP coordinates

LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""The line breaks of the Language Server Protocol (and of Python's tokenizer)."""


def lsp_lines(text: str) -> list[str]:
    """``text`` split into lines as LSP splits it (``\\r\\n``, ``\\r``, ``\\n`` only),
    breaks removed; a text ending in a break has an empty last line."""
    return LINE_BREAK.split(text)


def utf16_len(s: str) -> int:
    """Length of ``s`` in UTF-16 code units."""
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def lsp_position(lines: list[str], line: int, column: int, bom: bool = False) -> tuple[int, int]:
    """Engine / CLI coordinates (1-based ``line``, 0-based ``column`` in code points, not
    counting a byte-order mark) -> LSP ``(line, character)``, 0-based, UTF-16 units."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    column += int(bom and line == 1)
    return line - 1, utf16_len(text[:column])


def range_inside(lines: list[str], rng: dict) -> bool:
    """Whether the LSP range ``rng`` (a dict) lies inside a text split into ``lines``,
    its start not after its end."""
    start, end = rng["start"], rng["end"]
    for pos in (start, end):
        if not 0 <= pos["line"] < len(lines):
            return False
        if not 0 <= pos["character"] <= utf16_len(lines[pos["line"]]):
            return False
    return (start["line"], start["character"]) <= (end["line"], end["character"])


def json_ranges(text: str, report: list[dict]) -> set[tuple[str, tuple[int, int, int, int]]]:
    """``gradguard check --format json`` findings of ``text`` as ``(code, LSP range)``."""
    lines, bom = lsp_lines(text), text.startswith("\ufeff")
    out = set()
    for item in report:
        start = lsp_position(lines, item["location"]["row"], item["location"]["column"] - 1, bom)
        end = lsp_position(lines, item["end_location"]["row"],
                           item["end_location"]["column"] - 1, bom)
        out.add((item["code"], (*start, *end)))
    return out
