"""Jupyter notebooks (nbformat 4) read as one Python program, and written back.

The code cells, in order, are concatenated into one program (markdown and raw cells
are skipped; so are code cells whose ``metadata.vscode.languageId`` is not Python, and
every cell of a notebook whose kernel language is not Python). Lines that IPython
rewrites before Python sees them become placeholders of the same line count, so that
every line keeps its place: line magics (``%matplotlib inline``), shell escapes
(``!pip install x``, ``files = !ls``, ``t = %timeit -o f()``), help (``?x``, ``x??``),
automagics (``pip install x``), and their backslash continuations; a placeholder is
``pass`` at the line's indentation. Escapes count only where a statement starts (a
``%`` inside a string or inside brackets is Python). A cell magic on a cell's first
line runs the cell as something else: the whole cell is placeholders, except for the
magics whose body is Python (``%%time``, ``%%capture``, ... as ruff lists them), where
only the magic's line is.

:class:`CellMap` maps positions of the program back to (cell, line in cell, column).
Cells are numbered from 1 over all the notebook's cells, markdown included, as
Jupyter, VS Code and ruff (``train.ipynb:cell 3:4:5``) show them.
:meth:`Notebook.with_fixes` applies fix edits to the cells' sources and
:meth:`Notebook.dumps` writes the notebook back: the parsed JSON with only the edited
cells' ``source`` changed, keys in their order, in the file's indentation, line
endings and escaping of non-ASCII characters.
"""

from __future__ import annotations

import ast
import bisect
import copy
import io
import json
import re
import tokenize
from dataclasses import dataclass
from typing import Iterable

from gradguard.analysis.model import Edit, Finding, Fix, Message, Pos, Span
from gradguard.fixes import apply_edits, newline_of, split_lines
from gradguard.rules import N_

SUFFIX = ".ipynb"

PYTHON_CELL_MAGICS = frozenset({"capture", "debug", "ipytest", "prun", "pypy", "python",
                                "python3", "time", "timeit"})
"""Cell magics whose body is Python code (ruff's list): only their ``%%`` line is a
placeholder."""

AUTOMAGICS = frozenset({"autoreload", "cd", "conda", "env", "load_ext", "mamba",
                        "matplotlib", "micromamba", "pip", "reload_ext", "run", "set_env",
                        "time", "timeit"})
"""Line magics people write without ``%`` (IPython's automagic): a line starting with one
of these and a word after it is a magic when it is not Python (``pip install torch``)."""

_ESCAPE = re.compile(
    r"[ \t]*(?:[%!?]"                                    # %magic, %%magic, !cmd, ?help
    r"|[A-Za-z_][\w.]*\?\??[ \t]*\Z"                     # name? and name??
    r"|[A-Za-z_]\w*(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*[ \t]*=[ \t]*[%!])")  # x = !cmd, x = %magic
_AUTOMAGIC = re.compile(r"[ \t]*([A-Za-z_]\w*)[ \t]+\S")
# after such a name, an assignment (augmented too), a comparison or a call: Python
_PYTHON_AFTER_NAME = re.compile(r"[ \t]*(?:(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)|==|!=|\()")
_CELL_TYPES = ("code", "markdown", "raw")


def is_notebook(path: str) -> bool:
    """Whether the file at ``path`` is read as a notebook (by its name)."""
    return path.endswith(SUFFIX)


class NotebookError(Exception):
    """The text is not an nbformat 4 notebook: ``message`` says why, ``pos`` is the
    place in the file's text when there is one (invalid JSON)."""

    def __init__(self, message: Message, pos: Pos | None = None):
        super().__init__(message.render())
        self.message = message
        self.pos = pos


@dataclass(frozen=True)
class CellMap:
    """Where the code cells' lines are in the program.

    For each code cell (in order): ``numbers`` its 1-based number among all cells,
    ``starts`` the program line of its first line, ``sizes`` its line count.
    ``placeholders`` holds the program lines that stand for IPython syntax.
    """

    numbers: tuple[int, ...]
    starts: tuple[int, ...]
    sizes: tuple[int, ...]
    placeholders: frozenset[int]

    def _index(self, line: int) -> int:
        """The code cell (index) holding program ``line``: the last non-empty cell
        starting at or before it (the first cell for a line before any)."""
        k = max(bisect.bisect_right(self.starts, line) - 1, 0)
        while k > 0 and self.sizes[k] == 0:
            k -= 1
        return k

    def locate(self, pos: Pos, end_of: Pos | None = None) -> tuple[int, Pos]:
        """The cell number and the position in that cell of program position ``pos``.
        With ``end_of`` (the start of a non-empty range ending at ``pos``), the start
        of a cell's first line is the end of the cell before it. (A notebook without
        code cells has an empty program: its positions are cell 1's.)"""
        if not self.numbers:
            return 1, pos
        k = self._index(pos.line)
        if end_of is not None and end_of < pos and pos.column == 0 and k > 0 \
                and pos.line == self.starts[k]:
            k = self._index(pos.line - 1)
        return self.numbers[k], Pos(pos.line - self.starts[k] + 1, pos.column)

    def position(self, cell: int, pos: Pos) -> Pos | None:
        """The program position of ``pos`` in the cell numbered ``cell``; None for a cell
        that is not one of the program's code cells."""
        if cell not in self.numbers:
            return None
        return Pos(self.starts[self.numbers.index(cell)] + pos.line - 1, pos.column)

    def cell_of(self, line: int) -> int:
        """The number of the cell holding program line ``line``."""
        return self.locate(Pos(line, 0))[0]

    def locate_span(self, span: Span) -> tuple[int, Span, int]:
        """``span`` (in the program) as (start's cell, span in cell lines, end's cell)."""
        cell, start = self.locate(span.start)
        end_cell, end = self.locate(span.end, end_of=span.start)
        return cell, Span(start, end, span.path), end_cell

    def message(self, message: Message, home: int) -> Message:
        """``message`` with its line arguments (``line``, ``*_line``) counted in their
        cells: a line in cell ``home`` (where the message is shown) as a number, a line
        in another cell as "5 of cell 2"."""
        args = dict(message.args)
        for key, value in message.args.items():
            if (key == "line" or key.endswith("_line")) and isinstance(value, int) \
                    and not isinstance(value, bool):
                cell, pos = self.locate(Pos(value, 0))
                args[key] = pos.line if cell == home else Message(
                    N_("{line} of cell {cell}"), {"line": pos.line, "cell": cell})
        return Message(message.msgid, args)

    def fix_applies(self, fix: Fix) -> bool:
        """Whether ``fix``'s edits in the program all lie within one cell (none crossing
        a cell boundary, none moving code from one cell to another) and touch no
        placeholder line (edits in other files are not the notebook's)."""
        cells = set()
        for edit in fix.edits:
            if edit.span.path is not None:
                continue
            start, end = edit.span.start, edit.span.end
            cell, _, end_cell = self.locate_span(edit.span)
            cells.update((cell, end_cell))
            last = end.line - 1 if end.column == 0 and end.line > start.line else end.line
            if any(line in self.placeholders for line in range(start.line, last + 1)):
                return False
        return len(cells) <= 1

    def finding(self, finding: Finding) -> Finding:
        """``finding`` without the fixes that cannot be applied to the cells."""
        fixes = tuple(f for f in finding.fixes if self.fix_applies(f))
        if len(fixes) == len(finding.fixes):
            return finding
        return Finding(finding.code, finding.span, finding.message, finding.related, fixes)


@dataclass(frozen=True)
class _Style:
    """How the file's JSON is written: indentation, separators, escaping, line ends."""

    indent: str | None
    separators: tuple[str, str]
    ensure_ascii: bool
    newline: str
    final_newline: bool

    @classmethod
    def of(cls, text: str) -> "_Style":
        m = re.search(r"[\r\n]([ \t]+)\S", text)
        compact = m is None and '": ' not in text
        return cls(m.group(1) if m else None, (",", ":") if compact else (",", ": "),
                   text.isascii() and "\\u" in text, newline_of(text),
                   text.endswith(("\n", "\r")))


@dataclass(frozen=True)
class Notebook:
    """A parsed notebook: its JSON ``data`` (never changed in place), the ``program``
    of its code cells, and the :class:`CellMap` of that program."""

    data: dict
    program: str
    cells: CellMap
    style: _Style

    def with_fixes(self, fixes: Iterable[Fix]) -> "Notebook":
        """The notebook with the in-file edits of ``fixes`` (each one accepted by
        :meth:`CellMap.fix_applies`, none overlapping) applied to its cells' sources.
        Raises :class:`~gradguard.fixes.EditConflict` for edits that overlap."""
        by_cell: dict[int, list[Edit]] = {}
        for fix in fixes:
            for edit in fix.edits:
                if edit.span.path is None:
                    cell, span, _ = self.cells.locate_span(edit.span)
                    by_cell.setdefault(cell, []).append(Edit(span, edit.new_text))
        data = copy.deepcopy(self.data)
        for number, edits in by_cell.items():
            cell = data["cells"][number - 1]
            source = _source(cell)
            new = apply_edits(source, [_clamped(e, source) for e in edits])
            cell["source"] = new if isinstance(cell["source"], str) else split_lines(new)
        program, cells = _program(data)
        return Notebook(data, program, cells, self.style)

    def dumps(self) -> str:
        """The notebook's JSON text, in the style of the file it was read from."""
        s = self.style
        text = json.dumps(self.data, indent=s.indent, separators=s.separators,
                          ensure_ascii=s.ensure_ascii)
        if s.newline != "\n":
            text = text.replace("\n", s.newline)
        return text + (s.newline if s.final_newline else "")


def _clamped(edit: Edit, source: str) -> Edit:
    """``edit`` with an end just after the cell's last line (a line break the program
    added, not the cell) moved to the end of the cell's text."""
    lines = split_lines(source)
    if lines and not lines[-1].endswith(("\n", "\r")):
        last = Pos(len(lines), len(lines[-1]))
        return Edit(Span(min(edit.span.start, last), min(edit.span.end, last)), edit.new_text)
    return edit


def parse(text: str) -> Notebook:
    """The notebook in ``text`` (the file's JSON). Raises :class:`NotebookError` when it
    is not valid JSON or not an nbformat 4 notebook."""
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as e:
        raise NotebookError(Message(N_("error: invalid notebook: not valid JSON ({reason})"),
                                    {"reason": e.msg}), Pos(e.lineno, e.colno - 1)) from e
    except RecursionError as e:
        raise NotebookError(Message(N_("error: invalid notebook: not valid JSON ({reason})"),
                                    {"reason": "nested too deeply"})) from e
    _validate(data)
    program, cells = _program(data)
    return Notebook(data, program, cells, _Style.of(text))


def _validate(data: object) -> None:
    def fail(msgid: str, **args: object) -> NotebookError:
        return NotebookError(Message(msgid, args))

    if not isinstance(data, dict):
        raise fail(N_("error: invalid notebook: the JSON is not an object"))
    version = data.get("nbformat")
    if version != 4 or isinstance(version, bool):
        if version is None:
            raise fail(N_("error: invalid notebook: no nbformat version (only nbformat 4 "
                          "is read)"))
        raise fail(N_("error: invalid notebook: nbformat {version} (only nbformat 4 is "
                      "read)"), version=json.dumps(version)[:40])
    cells = data.get("cells")
    if not isinstance(cells, list):
        raise fail(N_("error: invalid notebook: \"cells\" is not a list"))
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict):
            raise fail(N_("error: invalid notebook: cell {cell} is not an object"), cell=number)
        if cell.get("cell_type") not in _CELL_TYPES:
            raise fail(N_("error: invalid notebook: cell {cell} has no cell_type code, "
                          "markdown or raw"), cell=number)
        source = cell.get("source")
        if not (isinstance(source, str) or isinstance(source, list)
                and all(isinstance(s, str) for s in source)):
            raise fail(N_("error: invalid notebook: the source of cell {cell} is not a "
                          "string or a list of strings"), cell=number)


def _source(cell: dict) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def _table(value: object, key: str) -> dict:
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, dict) else {}


def _is_python(data: dict, cell: dict) -> bool:
    """Whether ``cell`` is Python: the notebook's kernel language and the cell's
    language in VS Code (``metadata.vscode.languageId``), where given, say so."""
    metadata = _table(data, "metadata")
    languages = (_table(metadata, "kernelspec").get("language"),
                 _table(metadata, "language_info").get("name"))
    if any(isinstance(v, str) and v.lower() != "python" for v in languages):
        return False
    language = _table(_table(cell, "metadata"), "vscode").get("languageId")
    return not isinstance(language, str) or language == "python"


@dataclass(frozen=True)
class CodeCell:
    """One code cell as the program is made of it: its 1-based ``number`` among all the
    notebook's cells (markdown included), its ``source``, and whether it is ``python``
    (a cell of another language is all placeholders)."""

    number: int
    source: str
    python: bool = True


def _program(data: dict) -> tuple[str, CellMap]:
    """The program of the code cells of ``data`` and its :class:`CellMap`."""
    return program(CodeCell(number, _source(cell), _is_python(data, cell))
                   for number, cell in enumerate(data["cells"], start=1)
                   if cell["cell_type"] == "code")


def program(cells: Iterable[CodeCell]) -> tuple[str, CellMap]:
    """The program of ``cells`` (a notebook's code cells, in order), IPython syntax held
    by placeholders, and its :class:`CellMap`: what the CLI reads from a file and the
    language server from a synced notebook."""
    parts: list[str] = []
    numbers, starts, sizes, held = [], [], [], set()
    line = 1
    for cell in cells:
        lines = split_lines(cell.source)
        indents = _placeholders(lines) if cell.python else dict.fromkeys(range(len(lines)), "")
        for i, indent in indents.items():
            lines[i] = _placeholder(lines[i], indent)
        text = "".join(lines)
        if lines and not text.endswith(("\n", "\r")):
            text += "\n"
        numbers.append(cell.number)
        starts.append(line)
        sizes.append(len(lines))
        held.update(line + i for i in indents)
        parts.append(text)
        line += len(lines)
    return "".join(parts), CellMap(tuple(numbers), tuple(starts), tuple(sizes), frozenset(held))


def _continues(line: str) -> bool:
    return line.rstrip("\r\n").endswith("\\")


def _placeholder(line: str, indent: str) -> str:
    """``pass`` at ``indent``, with the line's own line break."""
    return indent + "pass" + line[len(line.rstrip("\r\n")):]


def _placeholders(lines: list[str]) -> dict[int, str]:
    """The lines of one code cell that are IPython syntax: index -> the indentation of
    their placeholder."""
    held: dict[int, str] = {}
    first = next((i for i, s in enumerate(lines) if s.strip()), None)
    if first is not None and lines[first].lstrip().startswith("%%"):
        name = lines[first].lstrip()[2:].split(maxsplit=1)
        if not name or name[0] not in PYTHON_CELL_MAGICS:
            return dict.fromkeys(range(len(lines)), "")
        held[first] = ""
    clean = first + 1 if held else 0  # a statement starts here
    i = 0
    while i < len(lines):
        head = i
        # An escape is one only where a statement starts: not inside a string or brackets.
        if i not in held and _is_escape(lines[i]) and not _open_at_end(lines[clean:i]):
            while _continues(lines[i]) and i + 1 < len(lines):
                i += 1
            held.update(dict.fromkeys(range(head, i + 1), _indent(lines[head])))
            clean = i + 1
        i += 1
    return held


def _indent(line: str) -> str:
    return line[:len(line) - len(line.lstrip(" \t"))]


def _is_escape(line: str) -> bool:
    content = line.rstrip("\r\n")
    if _ESCAPE.match(content):
        return True
    m = _AUTOMAGIC.match(content)
    if m is None or m.group(1) not in AUTOMAGICS:
        return False
    if _PYTHON_AFTER_NAME.match(content, m.end(1)):
        return False  # ``env = dict(`` opening a statement that goes on: Python
    try:
        ast.parse(content.strip())
    except (SyntaxError, ValueError):
        return True
    return False


def _open_at_end(lines: list[str]) -> bool:
    """Whether a statement is still open after ``lines`` (Python code that starts at a
    statement): inside a string, brackets or a backslash continuation."""
    open_ = False
    skipped = (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT,
               tokenize.ENDMARKER)
    try:
        for tok in tokenize.generate_tokens(io.StringIO("".join(lines)).readline):
            if tok.type not in skipped:
                open_ = tok.type != tokenize.NEWLINE
    except (tokenize.TokenError, SyntaxError):
        return True
    return open_
