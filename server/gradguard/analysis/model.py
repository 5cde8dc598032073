"""The engine's output types: findings, their ranges, related locations and fixes.

Coordinates follow libcst's ``PositionProvider``: ``line`` is 1-based, ``column`` is a
0-based offset in Unicode code points (characters) within that line. Adapters convert:
the CLI prints 1-based columns (ruff's JSON), the language server converts to LSP's
0-based UTF-16 positions. Nothing here knows about LSP, files or locales: messages are
English gettext msgids plus named arguments, rendered later by :mod:`gradguard.i18n`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Mapping, Sequence


@dataclass(frozen=True, order=True)
class Pos:
    """A position in source text: 1-based ``line``, 0-based ``column`` in characters."""

    line: int
    column: int


@dataclass(frozen=True, order=True)
class Span:
    """A half-open range ``[start, end)`` of source text, in :class:`Pos` coordinates.

    ``path`` is None for the analysed text, else the absolute path of the module of the
    user's it is in (an imported module: related locations and fix edits may point
    there; a finding's own span never does)."""

    start: Pos
    end: Pos
    path: str | None = None

    @staticmethod
    def of(line: int, col: int, end_line: int, end_col: int) -> "Span":
        """Build a span from four numbers (1-based lines, 0-based columns)."""
        return Span(Pos(line, col), Pos(end_line, end_col))

    def shifted(self, lines: int) -> "Span":
        """The same span moved down by ``lines`` lines (negative moves up)."""
        return Span(Pos(self.start.line + lines, self.start.column),
                    Pos(self.end.line + lines, self.end.column), self.path)


@dataclass(frozen=True)
class Message:
    """A translatable message: an English gettext ``msgid`` with ``{name}`` placeholders
    and the values to put in them (strings or ints, never translated themselves, or
    messages, rendered in the same language: a front end's "5 of cell 2" for a line)."""

    msgid: str
    args: Mapping[str, object] = field(default_factory=dict)

    def render(self, gettext=lambda s: s) -> str:
        """Translate the msgid with ``gettext`` and fill in the arguments."""
        args = {k: v.render(gettext) if isinstance(v, Message) else v
                for k, v in self.args.items()}
        return gettext(self.msgid).format(**args)


@dataclass(frozen=True)
class Edit:
    """Replace the text in ``span`` with ``new_text`` (an insertion has an empty span)."""

    span: Span
    new_text: str


@dataclass(frozen=True)
class Fix:
    """A quick fix: a titled list of non-overlapping edits.

    ``preferred`` marks the fix that keeps the program's meaning and is applied by
    ``--fix`` / fix-all; alternatives (such as ``retain_graph=True``) say their cost in
    their title. ``applicability`` follows ruff: "safe" or "unsafe".
    """

    title: Message
    edits: tuple[Edit, ...]
    preferred: bool = False
    applicability: str = "safe"

    @property
    def in_file(self) -> bool:
        """Whether every edit is in the analysed file (none in an imported module)."""
        return all(e.span.path is None for e in self.edits)


@dataclass(frozen=True)
class Related:
    """A location that explains a finding (where the graph was built, where it was freed);
    ``backward``: it is a backward the hazard is about (the one that freed the graph, or
    that needs what was changed)."""

    span: Span
    message: Message
    backward: bool = False


@dataclass(frozen=True)
class Finding:
    """One hazard found in a file.

    ``code`` is the stable rule code (``GG101``); ``span`` the offending expression;
    ``message`` names the tensor and the lines involved; ``related`` gives the graph's
    definition and the freeing call; ``fixes`` the quick fixes (at most one preferred).
    """

    code: str
    span: Span
    message: Message
    related: tuple[Related, ...] = ()
    fixes: tuple[Fix, ...] = ()

    @property
    def preferred_fix(self) -> Fix | None:
        """The fix marked preferred, or ``None``."""
        return next((f for f in self.fixes if f.preferred), None)


@dataclass(frozen=True)
class SyntaxProblem:
    """Why a text could not be analysed: a parse error at ``pos`` (or nesting too deep)."""

    pos: Pos
    message: str


@dataclass(frozen=True)
class EngineError:
    """An internal error: a bug in the engine that cost the findings of one root or of
    one rule in one root (the findings of the others are still reported).

    ``kind`` is "root" (the interpreter failed on a root: ``where`` is "module" or the
    function's qualified name, ``Trainer.step``) or "rule" (a rule's finding builder
    failed: ``where`` is its code, ``GG101``). ``root`` is the function's qualified
    name either way, None for the module body. ``span`` is the header of that root's function
    (from ``def``, or ``async``, to the end of its name; decorators excluded), or an
    empty span at the start of line 1 for the module body. ``message`` is
    ``"ExcType: text"``.
    """

    kind: str
    where: str
    root: str | None
    span: Span
    message: str

    def __str__(self) -> str:
        at = "module" if self.root is None else f"{self.root} (line {self.span.start.line})"
        return f"{at}: {self.message}" if self.kind == "root" else \
            f"{self.where} in {at}: {self.message}"


MODULE_SPAN = Span(Pos(1, 0), Pos(1, 0))
"""The span of an :class:`EngineError` of the module body."""


@dataclass(frozen=True)
class FileResult:
    """The analysis of one text: its findings, sorted by position, or a syntax problem.

    ``errors`` lists internal errors (a bug in one root or one rule, see
    :class:`EngineError`), roots in file order (module body first): the findings of the
    other roots and rules are still there. ``deps`` lists ``(path, sha256 of its text)``
    of each module of the user's the analysis read (imports followed): the result holds
    while the text and each of those are unchanged.
    """

    findings: tuple[Finding, ...] = ()
    syntax_error: SyntaxProblem | None = None
    errors: tuple[EngineError, ...] = ()
    deps: tuple[tuple[str, str], ...] = ()


LineMap = Callable[[int], "int | None"]
"""Old 1-based line -> new 1-based line, or None when the line was edited away."""


def _moved_span(span: Span, mapped: LineMap) -> Span | None:
    if span.path is not None:  # in another file: the edit did not move it
        return span
    start, end = mapped(span.start.line), mapped(span.end.line)
    if start is None or end is None:
        return None
    return Span(Pos(start, span.start.column), Pos(end, span.end.column))


def _moved_message(message: Message, mapped: LineMap) -> Message | None:
    """The message with its line arguments (``line`` and ``*_line``) moved."""
    args = dict(message.args)
    for key, value in message.args.items():
        if (key == "line" or key.endswith("_line")) and isinstance(value, int):
            args[key] = mapped(value)
            if args[key] is None:
                return None
    return replace(message, args=args)


def moved_error(error: EngineError, mapped: LineMap) -> EngineError | None:
    """``error`` moved to the lines ``mapped`` gives (the module's stays on line 1), or
    None when its header's lines do not map."""
    if error.root is None:
        return error
    span = _moved_span(error.span, mapped)
    return None if span is None else replace(error, span=span)


def _word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def fix_sites(finding: Finding, lines: Sequence[str]) -> tuple[Span, ...]:
    """Where the preferred fix of ``finding`` edits the analysed text (split into
    ``lines``, without their line breaks) on other lines than the finding's own
    (``D(fake)`` two lines above the backward that fails): the spans of those edits, in
    order, an insertion's widened to the word it touches (the one ending there, else the
    one starting there: ``fake`` for ``.detach()`` after it) so that it covers something;
    none without a preferred fix, or when it edits only the finding's lines or other
    files."""
    fix = finding.preferred_fix
    if fix is None:
        return ()
    first, last = finding.span.start.line, finding.span.end.line
    sites = []
    for span in (e.span for e in fix.edits if e.span.path is None):
        if first <= span.end.line and span.start.line <= last:
            continue
        at = span.start
        if span.end == at and 1 <= at.line <= len(lines) and \
                at.column <= len(text := lines[at.line - 1]):
            start = end = at.column
            while start > 0 and _word_char(text[start - 1]):
                start -= 1
            while start == at.column and end < len(text) and _word_char(text[end]):
                end += 1
            span = Span(Pos(at.line, start), Pos(at.line, end))
        sites.append(span)
    return tuple(sites)


def finding_lines(finding: Finding) -> tuple[int, int]:
    """The first and last line anything of ``finding`` is on or quotes (its span,
    related locations, fix edits, and line arguments of its messages)."""
    lines = [finding.span.start.line, finding.span.end.line]
    messages = [finding.message]
    for r in finding.related:
        if r.span.path is None:
            lines += (r.span.start.line, r.span.end.line)
        messages.append(r.message)
    for fix in finding.fixes:
        lines += [line for e in fix.edits if e.span.path is None
                  for line in (e.span.start.line, e.span.end.line)]
        messages.append(fix.title)
    lines += [v for msg in messages for k, v in msg.args.items()
              if (k == "line" or k.endswith("_line")) and isinstance(v, int)]
    return min(lines), max(lines)


def moved_finding(finding: Finding, mapped: LineMap, strict: bool = True) -> Finding | None:
    """``finding`` moved to the lines ``mapped`` gives (its span, related locations, fix
    edits, and the line numbers its messages quote: arguments named ``line`` or ending in
    ``_line`` are 1-based lines by convention).

    With ``strict``, None when anything in it sits on a line that does not map. Without,
    None only when its own span does not map; related locations and fixes that do not map
    are dropped (no edit may land on a line it was not computed for).
    """
    span = _moved_span(finding.span, mapped)
    message = _moved_message(finding.message, mapped)
    if span is None or message is None:
        return None
    related, fixes = [], []
    for r in finding.related:
        moved = _moved_span(r.span, mapped)
        msg = _moved_message(r.message, mapped)
        if moved is not None and msg is not None:
            related.append(replace(r, span=moved, message=msg))
        elif strict:
            return None
    for fix in finding.fixes:
        edits = [replace(e, span=_moved_span(e.span, mapped)) for e in fix.edits]
        title = _moved_message(fix.title, mapped)
        if title is not None and all(e.span is not None for e in edits):
            fixes.append(replace(fix, title=title, edits=tuple(edits)))
        elif strict:
            return None
    return replace(finding, span=span, message=message, related=tuple(related),
                   fixes=tuple(fixes))
