"""The safety checks one fix must pass, shared by the fix-safety tests and the edit fuzzer.

:func:`check_fix` applies a fix's edits with an applier written here from the model's
documented coordinates (1-based lines cut at ``\\r\\n``, ``\\r``, ``\\n``; 0-based columns in
code points; a leading byte-order mark not counted; line breaks in new text written in
the text's own style), independently of :mod:`gradguard.fixes`, and checks that:

* the edits lie inside the text and do not overlap; the fix changes the text;
* :func:`gradguard.fixes.apply_edits` produces exactly the same text (so nothing outside
  the edit ranges changes: here the text between edits is copied verbatim);
* the result parses (libcst, and CPython's own parser when the original did);
* re-analysing it reports no finding with the same code at the same place (the finding's
  start, moved by the edits before it).
"""

from __future__ import annotations

import ast
from typing import Sequence

import libcst

from gradguard.analysis import analyze
from gradguard.analysis.model import Edit, Finding, Fix, Pos
from gradguard.fixes import apply_edits
from robustness_support import LINE_BREAK, lsp_lines

BOM = "\ufeff"


class Located:
    """Offsets of engine positions in one text (without its BOM)."""

    def __init__(self, text: str):
        self.bom = BOM if text.startswith(BOM) else ""
        self.body = text[len(self.bom):]
        self.lines = lsp_lines(self.body)
        self.starts = [0] + [m.end() for m in LINE_BREAK.finditer(self.body)]
        m = LINE_BREAK.search(self.body)
        self.newline = m.group() if m else "\n"

    def offset(self, pos: Pos) -> int:
        assert 1 <= pos.line <= len(self.lines), f"line {pos.line} outside the text"
        assert 0 <= pos.column <= len(self.lines[pos.line - 1]), \
            f"column {pos.line}:{pos.column} outside the line {self.lines[pos.line - 1]!r}"
        return self.starts[pos.line - 1] + pos.column

    def pos(self, offset: int) -> Pos:
        line = max(i for i, s in enumerate(self.starts) if s <= offset)
        return Pos(line + 1, offset - self.starts[line])


def edited_spans(text: str, edits: Sequence[Edit]) -> list[tuple[int, int, str]]:
    """``(start, end, new text)`` of each edit in offsets of ``text`` without its BOM,
    in application order; asserts they are inside the text and do not overlap."""
    loc = Located(text)
    spans = sorted(((loc.offset(e.span.start), loc.offset(e.span.end), i,
                     LINE_BREAK.sub(loc.newline, e.new_text)) for i, e in enumerate(edits)))
    cursor = 0
    for start, end, _, _ in spans:
        assert start <= end, f"edit ends before it starts: {edits}"
        assert start >= cursor, f"edits overlap: {edits}"
        cursor = end
    return [(s, e, new) for s, e, _, new in spans]


def apply_independently(text: str, edits: Sequence[Edit]) -> str:
    """``text`` with ``edits`` applied (see the module docstring); the text outside the
    edited spans is copied unchanged."""
    loc = Located(text)
    out, cursor = [loc.bom], 0
    for start, end, new in edited_spans(text, edits):
        out += [loc.body[cursor:start], new]
        cursor = end
    out.append(loc.body[cursor:])
    return "".join(out)


def moved(text: str, edits: Sequence[Edit], pos: Pos) -> Pos:
    """Where ``pos`` of ``text`` is after the edits (an edit covering it: its start)."""
    loc = Located(text)
    offset = loc.offset(pos)
    shift = 0
    for start, end, new in edited_spans(text, edits):
        if end <= offset:
            shift += len(new) - (end - start)
        elif start < offset:
            shift += start - offset
    return Located(apply_independently(text, edits)).pos(offset + shift)


def parses_in_cpython(text: str) -> bool:
    try:
        ast.parse(text.removeprefix(BOM))
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


def check_fix(text: str, finding: Finding, fix: Fix) -> str:
    """Assert that ``fix`` of ``finding`` is safe on ``text`` (see the module docstring);
    returns the fixed text."""
    where = f"{finding.code} at {finding.span.start} fix {fix.title.render()!r}"
    assert fix.title.render().strip() and finding.message.render().strip(), where
    assert fix.edits, f"{where}: a fix without edits"
    new = apply_independently(text, fix.edits)
    assert new != text, f"{where}: the fix changes nothing"
    assert apply_edits(text, fix.edits) == new, \
        f"{where}: gradguard.fixes.apply_edits changes text outside the edits"
    try:
        libcst.parse_module(new.removeprefix(BOM))
    except libcst.ParserSyntaxError as e:
        raise AssertionError(f"{where}: the fixed text does not parse: {e}\n{new}") from e
    if parses_in_cpython(text):
        assert parses_in_cpython(new), f"{where}: CPython cannot parse the fixed text\n{new}"
    again = analyze(new)
    assert again.syntax_error is None, f"{where}: {again.syntax_error}\n{new}"
    place = moved(text, fix.edits, finding.span.start)
    same = [f for f in again.findings if f.code == finding.code and f.span.start == place]
    assert not same, f"{where}: reported again at {place} after the fix:\n{new}"
    return new
