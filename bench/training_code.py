"""Reproducible, real-looking PyTorch training code for the benchmarks (not a test).

The material is the repository's own training programs: ``examples/*.py``,
``tests/programs/*.py`` and, when the shared folder sits beside the repository, the
labelled corpus ``../shared/cases/*/*.py``. A *copy* of a program drops its
``if __name__ == "__main__":`` block and renames its top-level functions and classes
with a suffix, so copies read like distinct modules (and hash differently: a content
cache cannot serve one copy's result to another).

The file shapes of issue 14, each the same text on every run:

* :func:`training_file`: copies of the examples one after another (functions and
  classes, no module-level loops);
* :func:`scripts_file`: the programs of :data:`PROGRAMS` as scripts, one after
  another: each program's ``__main__`` block runs at module level beside its own
  module-level loops; ``guarded=True`` puts each script's module-level code in a
  ``main()`` called behind ``if __name__ == "__main__":``;
* :func:`one_class_file`: one class whose methods are the programs' functions, between
  the programs' imports and a trailing module-level statement;
* :func:`real_module`: deepspeed 0.19.8's ``deepspeed/runtime/engine.py`` (6,075 lines
  in that sdist, its big class last), read from the sdist on PyPI, downloaded once into the user's
  cache folder and checked against PyPI's sha256 (never part of this repository).
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import sys
import tarfile
import textwrap
import urllib.request
from pathlib import Path

import platformdirs

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PROGRAMS = (EXAMPLES, ROOT / "tests" / "programs")
"""The folders the file shapes draw from, in this order."""
CORPUS = (*PROGRAMS, ROOT.parent / "shared" / "cases")
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


def renamed(text: str, suffix: str) -> str:
    """``text`` with each top-level ``def``/``class`` name (and every use of it)
    suffixed with ``_{suffix}``."""
    for _, name in _TOP_LEVEL.findall(text):
        text = re.sub(rf"\b{name}\b", f"{name}_{suffix}", text)
    return text


def renamed_copy(text: str, suffix: str) -> str:
    """``text`` without its ``__main__`` block, renamed (:func:`renamed`), ending in two
    blank lines."""
    body = text.split('\nif __name__ == "__main__":')[0]
    return renamed(body, suffix).rstrip() + "\n\n\n"


def _joined(min_lines: int, sources: list[str], copy_of) -> str:
    """``copy_of(text, suffix)`` of each of ``sources`` in turn, round after round,
    suffixes numbered from 0, joined until they hold at least ``min_lines`` lines."""
    parts, lines, copy = [], 0, 0
    while lines < min_lines:
        for text in sources:
            parts.append(copy_of(text, str(copy)))
            lines += parts[-1].count("\n")
            copy += 1
            if lines >= min_lines:
                break
    return "".join(parts)


def training_file(min_lines: int, folders: tuple[Path, ...] = (EXAMPLES,)) -> str:
    """One training module of at least ``min_lines`` lines: copies of the programs of
    ``folders`` (default: the examples), numbered from 0, one after another; the same
    text on every run."""
    return _joined(min_lines, programs(folders), renamed_copy)


def _statements(text: str) -> list[tuple[ast.stmt, str]]:
    """Each top-level statement of ``text`` with its source: from its first line
    (decorators included) to the line before the next statement."""
    lines = text.splitlines(keepends=True)
    body = ast.parse(text).body
    starts = [(s.decorator_list[0] if getattr(s, "decorator_list", None) else s).lineno - 1
              for s in body]
    return [(s, "".join(lines[a:b])) for s, a, b in zip(body, starts, starts[1:] + [len(lines)])]


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _is_main_guard(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.If) and ast.unparse(stmt.test) == "__name__ == '__main__'"


def script(text: str, suffix: str, guarded: bool = False) -> str:
    """``text`` as a training script, renamed (:func:`renamed`): its ``__main__`` block's
    body at module level, where the block was. ``guarded``: the module-level code other
    than the docstring, imports, functions and classes (in its order) in a
    ``main()`` called behind ``if __name__ == "__main__":`` at the end."""
    head: list[tuple[ast.stmt, str]] = []
    code: list[str] = []
    for stmt, source in _statements(text):
        if _is_main_guard(stmt):
            lines = source.splitlines(keepends=True)[stmt.body[0].lineno - stmt.lineno:]
            source = textwrap.dedent("".join(lines))
        defined = isinstance(stmt, (ast.Import, ast.ImportFrom, *_DEFINITIONS))
        docstring = isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
        if not guarded or defined or docstring:
            head.append((stmt, source))
        else:
            code.append(source.rstrip())
    if not guarded:
        return renamed("".join(source for _, source in head), suffix).rstrip() + "\n\n\n"
    parts = []  # the moved code leaves gaps: two blank lines around each definition
    for before, (stmt, source) in zip([None] + [s for s, _ in head], head):
        spaced = isinstance(before, _DEFINITIONS) or isinstance(stmt, _DEFINITIONS)
        parts.append(("\n\n\n" if spaced else "\n") + source.strip())
    body = textwrap.indent("\n".join(code), "    ")
    return renamed("".join(parts).lstrip() + f"\n\n\ndef main():\n{body}\n\n\n"
                   'if __name__ == "__main__":\n    main()\n', suffix) + "\n\n"


def scripts_file(min_lines: int, guarded: bool = False) -> str:
    """Training scripts (:func:`script`) of the programs of :data:`PROGRAMS`, numbered
    from 0, one after another, until they hold at least ``min_lines`` lines."""
    return _joined(min_lines, programs(PROGRAMS),
                   lambda text, suffix: script(text, suffix, guarded))


def _methods(text: str, suffix: str) -> str:
    """The top-level functions of ``text``, renamed (:func:`renamed`), as methods: ``self``
    first in each signature, calls among them through ``self``, indented one level."""
    text = renamed(text, suffix)
    functions = [(stmt.name, source) for stmt, source in _statements(text)
                 if isinstance(stmt, ast.FunctionDef)]
    methods = []
    for _, source in functions:
        for name, _ in functions:
            source = re.sub(rf"(?<!def )(?<![\w.]){name}\(", f"self.{name}(", source)
            source = re.sub(rf"^def {name}\((\)?)", lambda m: f"def {name}(self{m[1] or ', '}",
                            source, flags=re.M)
        methods.append(textwrap.indent(source.rstrip(), "    ") + "\n\n")
    return "".join(methods)


def one_class_file(min_lines: int) -> str:
    """One class ``Trainer(nn.Module)`` of at least ``min_lines`` lines whose methods
    are the functions of the programs of :data:`PROGRAMS` (:func:`_methods`, numbered
    from 0), after the programs' imports (each once) and before a module-level
    ``trainer = Trainer()``."""
    sources = programs(PROGRAMS)
    imports = dict.fromkeys(source.strip() for text in sources for stmt, source in _statements(text)
                            if isinstance(stmt, (ast.Import, ast.ImportFrom)))
    head = "".join(line + "\n" for line in imports)
    body = _joined(min_lines, [s for s in sources if _methods(s, "0")], _methods)
    return f"{head}\n\nclass Trainer(nn.Module):\n{body.rstrip()}\n\n\ntrainer = Trainer()\n"


DEEPSPEED = ("deepspeed", "0.19.8", "deepspeed/runtime/engine.py")
"""The real module of issue 14: (project, version, path in the sdist)."""
INDEX = "https://pypi.org/simple"


def cache_dir() -> Path:
    """The benchmarks' download folder: ``gradguard-bench`` in the user cache folder
    (``~/.cache/gradguard-bench`` on Linux)."""
    return Path(platformdirs.user_cache_dir("gradguard-bench"))


def _sdist(project: str, version: str) -> Path:
    """The sdist of ``project`` ``version`` in :func:`cache_dir`; unless it is there,
    downloaded from PyPI (its simple JSON index, PEP 691) and checked against the
    index's sha256 first. Exits with a message when it cannot be had."""
    name = f"{project}-{version}.tar.gz"
    dest = cache_dir() / name
    if dest.exists():
        return dest
    try:
        request = urllib.request.Request(f"{INDEX}/{project}/", headers={
            "Accept": "application/vnd.pypi.simple.v1+json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            entry = next(f for f in json.load(response)["files"] if f["filename"] == name)
        with urllib.request.urlopen(entry["url"], timeout=300) as response:
            data = response.read()
    except (OSError, StopIteration, KeyError, ValueError) as error:
        sys.exit(f"bench: cannot download {name} from {INDEX}: {error!r}")
    if hashlib.sha256(data).hexdigest() != entry["hashes"]["sha256"]:
        sys.exit(f"bench: {name} from {entry['url']} does not match its sha256")
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(data)
    return dest


def real_module() -> str:
    """The text of deepspeed 0.19.8's ``deepspeed/runtime/engine.py`` (:data:`DEEPSPEED`),
    read from its sdist (:func:`_sdist`) once and kept beside it in :func:`cache_dir`."""
    project, version, path = DEEPSPEED
    kept = cache_dir() / f"{project}-{version}-{path.replace('/', '-')}"
    if not kept.exists():
        with tarfile.open(_sdist(project, version)) as tar:
            member = tar.extractfile(f"{project}-{version}/{path}")
            if member is None:
                sys.exit(f"bench: {path} is not a file in the {project} {version} sdist")
            kept.write_bytes(member.read())
    return kept.read_text(encoding="utf-8")


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
