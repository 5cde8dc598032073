"""Suppression comments: ``# noqa``, ``# noqa: GG101, GG102`` and
``# gradguard: ignore[GG101]`` on the line where a finding starts.

Codes and kebab-case rule names both work (``# noqa: backward-through-freed-graph``).
A bare ``# noqa`` or ``# gradguard: ignore`` suppresses every rule on its line.
``# noqa`` shares its comment with other tools: ``# noqa: E501, GG101`` suppresses
GG101 here and E501 for ruff/flake8; the code list ends at the first word that is
neither a code nor a rule name (``# noqa: GG101 because ...``). Comments are found
with Python's tokenizer, so ``"# noqa"`` inside a string does not count.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from typing import Iterable

from gradguard.analysis.model import Edit, Finding, Pos, Span
from gradguard.fixes import split_lines
from gradguard.rules import rule_for

_NOQA = re.compile(r"#\s*noqa(?::[ \t]*(?P<codes>[\w-]+(?:[ \t]*,?[ \t]*[\w-]+)*))?", re.I)
_IGNORE = re.compile(r"#\s*gradguard:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.I)
_CODE_LIKE = re.compile(r"[A-Za-z]+\d+\Z")
_WORD = re.compile(r"[^\s,]+")
_MARKERS = ("noqa", "gradguard")


@dataclass(frozen=True)
class Directive:
    """One suppression comment directive on a line.

    ``codes`` lists the codes it names (rule names resolved to codes; foreign codes
    such as ``E501`` kept as written), or is ``None`` for a bare directive that
    suppresses everything. ``codes_end`` is the column just after the last code (where
    another code can be appended), ``None`` for a bare directive.
    """

    line: int
    codes: tuple[str, ...] | None
    codes_end: int | None


@dataclass(frozen=True)
class _Scan:
    """What the tokenizer saw: comment directives, and lines whose end lies inside a
    token (a multi-line string) or in a backslash continuation."""

    directives: tuple[Directive, ...]
    comment_lines: frozenset[int]
    open_lines: frozenset[int]


def _codes_of(raw: str) -> tuple[list[str], int]:
    """The codes at the start of ``raw`` (words up to the first that is neither a code
    nor a rule name; names resolved to codes, codes upper-cased) and the offset in
    ``raw`` just after the last of them."""
    codes, end = [], 0
    for word in _WORD.finditer(raw):
        rule = rule_for(word.group())
        if rule is not None:
            codes.append(rule.code)
        elif _CODE_LIKE.match(word.group()):
            codes.append(word.group().upper())
        else:
            break
        end = word.end()
    return codes, end


def _directives_in(comment: str, line: int, column: int) -> list[Directive]:
    """The directives in one comment token that starts at ``line``:``column``."""
    found = []
    for pattern in (_NOQA, _IGNORE):
        for m in pattern.finditer(comment):
            raw = m.group("codes")
            codes, end = _codes_of(raw) if raw is not None else ([], 0)
            if codes:
                found.append(Directive(line, tuple(codes), column + m.start("codes") + end))
            else:
                found.append(Directive(line, None, None))
    return found


def _scan(text: str) -> _Scan:
    """Tokenize ``text`` and collect its suppression directives. If the tokenizer stops
    early (text that the running Python cannot tokenize), what it saw until then counts."""
    directives: list[Directive] = []
    comment_lines: set[int] = set()
    open_lines: set[int] = set()
    readline = io.StringIO(text.removeprefix("\ufeff"), newline=None).readline
    try:
        for tok in tokenize.generate_tokens(readline):
            if tok.type == tokenize.COMMENT:
                comment_lines.add(tok.start[0])
                directives.extend(_directives_in(tok.string, tok.start[0], tok.start[1]))
            elif tok.end[0] > tok.start[0]:
                open_lines.update(range(tok.start[0], tok.end[0]))
    except (tokenize.TokenError, SyntaxError):
        pass
    for number, line in enumerate(split_lines(text), start=1):
        if line.rstrip("\r\n").endswith("\\") and number not in comment_lines:
            open_lines.add(number)
    return _Scan(tuple(directives), frozenset(comment_lines), frozenset(open_lines))


def suppressions(text: str) -> dict[int, frozenset[str] | None]:
    """The suppressed codes of each line of ``text`` (1-based line -> codes), ``None``
    meaning every code. Lines without a directive are absent."""
    out: dict[int, frozenset[str] | None] = {}
    if not any(marker in text.lower() for marker in _MARKERS):
        return out
    for d in _scan(text).directives:
        if d.codes is None or (d.line in out and out[d.line] is None):
            out[d.line] = None
        else:
            out[d.line] = (out.get(d.line) or frozenset()) | frozenset(d.codes)
    return out


def is_suppressed(finding: Finding, table: dict[int, frozenset[str] | None]) -> bool:
    """Whether ``table`` (from :func:`suppressions`) suppresses ``finding`` on its
    start line."""
    line = finding.span.start.line
    if line not in table:
        return False
    codes = table[line]
    return codes is None or finding.code in codes


def unsuppressed(findings: Iterable[Finding], text: str) -> list[Finding]:
    """The findings that no suppression comment in ``text`` covers, in their order."""
    findings = list(findings)
    if not findings:
        return findings
    table = suppressions(text)
    return [f for f in findings if not is_suppressed(f, table)]


def noqa_edit(text: str, line: int, code: str) -> Edit | None:
    """The edit that suppresses ``code`` on ``line`` (1-based) of ``text``.

    Extends an existing ``# noqa: ...`` (or ``# gradguard: ignore[...]``) list on that
    line with ``, CODE``; otherwise appends ``  # noqa: CODE`` to the line (replacing
    trailing whitespace). Returns ``None`` when the line already suppresses ``code``,
    or when a comment cannot go there: the line ends inside a multi-line string or a
    backslash continuation, or it is past the end of the text. Raises nothing.
    """
    lines = split_lines(text)
    if not 1 <= line <= len(lines):
        return None
    scan = _scan(text)
    here = [d for d in scan.directives if d.line == line]
    if any(d.codes is None or code in d.codes for d in here):
        return None
    if here:
        d = here[0]
        pos = Pos(line, d.codes_end)
        return Edit(Span(pos, pos), f", {code}")
    if line in scan.open_lines:
        return None
    content = lines[line - 1].rstrip("\r\n")
    if line == 1:
        content = content.removeprefix("\ufeff")
    kept = content.rstrip()
    return Edit(Span(Pos(line, len(kept)), Pos(line, len(content))), f"  # noqa: {code}")
