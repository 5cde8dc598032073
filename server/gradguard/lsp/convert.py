"""Conversions between the engine's coordinates and LSP's.

The engine speaks :class:`~gradguard.analysis.model.Pos`: 1-based lines, 0-based columns
in code points, lines split by libcst (``\\n``, ``\\r\\n``, ``\\r``), a leading byte-order
mark not counted in line 1's columns (as :mod:`gradguard.fixes` counts). LSP speaks 0-based
lines and 0-based columns in the *position encoding* negotiated at ``initialize``:
UTF-16 code units unless client and server agreed on ``utf-8`` or ``utf-32``
(LSP 3.17, ``general.positionEncodings``). A character outside the Basic Multilingual
Plane (an emoji in a comment) is 1 code point, 2 UTF-16 units and 4 UTF-8 units.

pygls ships a ``PositionCodec`` too, but its ``position_from_client_units`` rewrites the
``Position`` it is given and clamps to the last character; these functions are pure.
"""

from __future__ import annotations

from typing import Sequence

from lsprotocol import types as t

from gradguard import fixes
from gradguard.analysis.model import Edit, Pos, Span


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their line breaks, cut as LSP and libcst cut them
    (``\\r\\n``, ``\\r``, ``\\n``; a form feed is not a line break):
    :func:`gradguard.fixes.split_lines` with the breaks removed."""
    return [line.rstrip("\r\n") for line in fixes.split_lines(text)]


def _units(s: str, encoding: str) -> int:
    """Length of ``s`` in the code units of ``encoding`` ("utf-8", "utf-16", "utf-32")."""
    if encoding == t.PositionEncodingKind.Utf8:
        return len(s.encode("utf-8", "surrogatepass"))
    if encoding == t.PositionEncodingKind.Utf32:
        return len(s)
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def _bom(text: str, line: int) -> int:
    """1 if ``text`` is line 0 and starts with a byte-order mark, else 0."""
    return int(line == 0 and text.startswith(fixes.BOM))


def to_lsp_position(lines: Sequence[str], pos: Pos, encoding: str) -> t.Position:
    """Engine ``pos`` -> LSP position in ``encoding`` units, for a text split into ``lines``.

    A position past the end of its line (or a line past the end of the text) is kept as
    is in the line dimension and clamped to the line's length, which LSP clients accept.
    """
    line = pos.line - 1
    text = lines[line] if 0 <= line < len(lines) else ""
    column = pos.column + _bom(text, line)
    return t.Position(line=max(line, 0), character=_units(text[:column], encoding))


def from_lsp_position(lines: Sequence[str], position: t.Position, encoding: str) -> Pos:
    """LSP ``position`` in ``encoding`` units -> engine :class:`Pos` (code points).

    A column that falls inside a character (half of a surrogate pair) rounds down to that
    character's start; a column past the end of the line gives the line's end.
    """
    text = lines[position.line] if 0 <= position.line < len(lines) else ""
    bom = _bom(text, position.line)
    units = 0
    for index, char in enumerate(text):
        units += _units(char, encoding)
        if units > position.character:
            return Pos(position.line + 1, max(index - bom, 0))
    return Pos(position.line + 1, len(text) - bom)


def to_lsp_range(lines: Sequence[str], span: Span, encoding: str) -> t.Range:
    """Engine ``span`` -> LSP range (see :func:`to_lsp_position`)."""
    return t.Range(start=to_lsp_position(lines, span.start, encoding),
                   end=to_lsp_position(lines, span.end, encoding))


def from_lsp_range(lines: Sequence[str], rng: t.Range, encoding: str) -> Span:
    """LSP range -> engine :class:`Span` (see :func:`from_lsp_position`)."""
    return Span(from_lsp_position(lines, rng.start, encoding),
                from_lsp_position(lines, rng.end, encoding))


def to_text_edit(lines: Sequence[str], edit: Edit, encoding: str) -> t.TextEdit:
    """Engine :class:`Edit` -> LSP ``TextEdit``."""
    return t.TextEdit(range=to_lsp_range(lines, edit.span, encoding), new_text=edit.new_text)


def range_to_json(rng: t.Range) -> list[int]:
    """A range as ``[start line, start character, end line, end character]`` (for ``data``)."""
    return [rng.start.line, rng.start.character, rng.end.line, rng.end.character]


def range_from_json(value: object) -> t.Range:
    """Inverse of :func:`range_to_json`. Raises ``ValueError`` for anything else than a
    list of four integers >= 0 (``data`` comes back from the client, which may forge it)."""
    if not (isinstance(value, list) and len(value) == 4
            and all(type(v) is int and v >= 0 for v in value)):
        raise ValueError(f"not a range: {value!r}")
    return t.Range(t.Position(value[0], value[1]), t.Position(value[2], value[3]))


def ranges_overlap(a: t.Range, b: t.Range) -> bool:
    """Whether two LSP ranges share a position (touching ranges count, so a cursor
    at the end of a diagnostic still selects it)."""
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)
