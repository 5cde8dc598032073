"""Applying text edits and fixes to source text (``--fix``, ``--diff``, LSP fix-all).

Positions follow :mod:`gradguard.analysis.model`: 1-based lines, 0-based columns in
code points. Lines end at ``\\r\\n``, ``\\r`` or ``\\n`` (as Python's tokenizer and
libcst count them; form feeds and Unicode line separators do not end a line). A
leading byte-order mark is not counted in line 1's columns and is kept.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from gradguard.analysis.model import Edit, Fix, Pos

BOM = "\ufeff"
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_BREAK = re.compile(r"\r\n|\r|\n")


class EditConflict(ValueError):
    """Two edits overlap, or an edit lies outside the text."""


def split_lines(text: str) -> list[str]:
    """``text`` cut into lines, each keeping its line ending (``"a\\r\\nb"`` ->
    ``["a\\r\\n", "b"]``); an empty text has no lines."""
    return _LINE.findall(text)


def newline_of(text: str) -> str:
    """The text's first line ending (``"\\r\\n"``, ``"\\r"`` or ``"\\n"``); ``"\\n"``
    if it has none."""
    m = _BREAK.search(text)
    return m.group() if m else "\n"


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with every edit applied at once (positions refer to the original text).

    Line breaks inside ``new_text`` are written in the text's own style (CRLF text gets
    CRLF). Edits are applied in position order; insertions at the same position keep
    the order given. Raises :class:`EditConflict` if two edits overlap (one starts
    before the other ends) or a position lies outside the text (a column past its
    line's end, or a line past the last; the position just after the last line break,
    ``(last line + 1, 0)``, is the end of the text).
    """
    bom = BOM if text.startswith(BOM) else ""
    body = text[len(bom):]
    lines = split_lines(body)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    newline = newline_of(body)

    def offset(pos: Pos) -> int:
        if 1 <= pos.line <= len(lines):
            content = len(lines[pos.line - 1].rstrip("\r\n"))
        elif pos.line == len(lines) + 1 and (not lines or lines[-1] != lines[-1].rstrip("\r\n")):
            content = 0  # the empty line after a final line break (or of an empty text)
        else:
            content = -1
        if not 0 <= pos.column <= content:
            raise EditConflict(f"edit position {pos.line}:{pos.column} is outside the text")
        return starts[pos.line - 1] + pos.column

    spans = sorted(
        ((offset(e.span.start), offset(e.span.end), i, e.new_text) for i, e in enumerate(edits)),
    )
    out, cursor = [], 0
    for start, end, _, new_text in spans:
        if start < cursor or end < start:
            raise EditConflict(f"edits overlap at offset {start}")
        out.append(body[cursor:start])
        out.append(_BREAK.sub(newline, new_text))
        cursor = end
    out.append(body[cursor:])
    return bom + "".join(out)


def _extent(fix: Fix) -> list[tuple[Pos, Pos]]:
    return [(e.span.start, e.span.end) for e in fix.edits]


def fixes_conflict(a: Fix, b: Fix) -> bool:
    """Whether two fixes touch the same text: an edit of one overlaps, or ends where
    begins, an edit of the other (so applying both at once could be order-dependent)."""
    return any(s1 <= e2 and s2 <= e1 for s1, e1 in _extent(a) for s2, e2 in _extent(b))


def compatible_fixes(fixes: Sequence[Fix]) -> list[Fix]:
    """The fixes that can be applied together: walking ``fixes`` in order, each one is
    kept unless it conflicts (:func:`fixes_conflict`) with one already kept. The ones
    left out can be applied to the result in a later round."""
    kept: list[Fix] = []
    for fix in fixes:
        if not any(fixes_conflict(fix, k) for k in kept):
            kept.append(fix)
    return kept


def apply_fixes(text: str, fixes: Iterable[Fix]) -> str:
    """``text`` with the edits of every fix applied at once (see :func:`apply_edits`;
    pick the fixes with :func:`compatible_fixes`). Raises :class:`EditConflict`."""
    return apply_edits(text, [edit for fix in fixes for edit in fix.edits])
