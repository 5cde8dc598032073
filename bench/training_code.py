"""Reproducible, real-looking PyTorch training code for the benchmarks (not a test).

The material is the repository's own training programs: ``examples/*.py``,
``tests/programs/*.py`` and, when the shared folder sits beside the repository, the
labelled corpus ``../shared/cases/*/*.py``. A *copy* of a program drops its
``if __name__ == "__main__":`` block and renames its top-level functions and classes
with a suffix, so copies read like distinct modules (and hash differently: a content
cache cannot serve one copy's result to another).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CORPUS = (EXAMPLES, ROOT / "tests" / "programs", ROOT.parent / "shared" / "cases")
"""The folders :func:`tree` draws from, in this order (missing ones are skipped)."""

_TOP_LEVEL = re.compile(r"^(def|class) (\w+)", re.M)


def programs(folders: tuple[Path, ...]) -> list[str]:
    """The texts of the ``.py`` files under ``folders``, folder by folder, in path order.
    Exits with a message when there are none."""
    texts = [p.read_text(encoding="utf-8") for d in folders if d.is_dir()
             for p in sorted(d.rglob("*.py"))]
    if not texts:
        sys.exit(f"bench: no .py files in {', '.join(map(str, folders))}")
    return texts


def renamed_copy(text: str, suffix: str) -> str:
    """``text`` without its ``__main__`` block, each top-level ``def``/``class`` name
    (and every use of it) suffixed with ``_{suffix}``, ending in two blank lines."""
    body = text.split('\nif __name__ == "__main__":')[0]
    for _, name in _TOP_LEVEL.findall(body):
        body = re.sub(rf"\b{name}\b", f"{name}_{suffix}", body)
    return body.rstrip() + "\n\n\n"


def training_file(min_lines: int, folders: tuple[Path, ...] = (EXAMPLES,)) -> str:
    """One training module of at least ``min_lines`` lines: copies of the programs of
    ``folders`` (default: the examples), numbered from 0, one after another; the same
    text on every run."""
    sources = programs(folders)
    parts, lines, copy = [], 0, 0
    while lines < min_lines:
        for text in sources:
            parts.append(renamed_copy(text, str(copy)))
            lines += parts[-1].count("\n")
            copy += 1
            if lines >= min_lines:
                break
    return "".join(parts)


def tree(target: Path, min_lines: int, file_lines: int = 300) -> tuple[int, int]:
    """Fill ``target`` with training modules of about ``file_lines`` lines each (copies
    of every program of :data:`CORPUS` in turn, round after round, in ``pkg_NNN/``
    folders of 50 modules) until they hold at least ``min_lines`` lines; returns
    (files, lines). The same tree on every run with the same corpus."""
    sources = programs(CORPUS)
    files = lines = copy = 0
    while lines < min_lines:
        parts: list[str] = []
        while sum(p.count("\n") for p in parts) < file_lines:
            parts.append(renamed_copy(sources[copy % len(sources)], str(copy)))
            copy += 1
        text = "".join(parts)
        dest = target / f"pkg_{files // 50:03d}" / f"module_{files:05d}.py"
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text, encoding="utf-8")
        files += 1
        lines += text.count("\n")
    return files, lines
