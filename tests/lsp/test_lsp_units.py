"""In-process units of the server: position conversion and carrying findings over edits."""

from __future__ import annotations

import pytest
from lsprotocol import types as t
from pygls.workspace import Workspace

from gradguard.analysis.model import Edit, Finding, Fix, Message, Pos, Related, Span
from gradguard.lsp import convert
from gradguard.lsp.documents import LspWorkspace, line_mapper, remap_findings

LINE = 'x = "😀é"; y.backward()'  # the emoji is outside the BMP, é is 2 bytes in UTF-8


@pytest.mark.parametrize("encoding, column", [("utf-16", 15), ("utf-8", 18), ("utf-32", 14)])
def test_columns_per_encoding(encoding, column):
    lines = convert.split_lines(LINE + "\n")
    assert convert.to_lsp_position(lines, Pos(1, 14), encoding) == t.Position(0, column)
    assert convert.from_lsp_position(lines, t.Position(0, column), encoding) == Pos(1, 14)


def test_column_inside_a_surrogate_pair_rounds_down_and_past_the_end_clamps():
    lines = convert.split_lines(LINE)
    assert convert.from_lsp_position(lines, t.Position(0, 6), "utf-16") == Pos(1, 5)
    assert convert.from_lsp_position(lines, t.Position(0, 99), "utf-16") == Pos(1, 22)
    assert convert.from_lsp_position(lines, t.Position(7, 3), "utf-16") == Pos(8, 0)


def test_byte_order_mark_is_not_a_column_for_the_engine():
    lines = convert.split_lines("\ufeffx = 1\ny = 2\n")
    assert convert.to_lsp_position(lines, Pos(1, 0), "utf-16") == t.Position(0, 1)
    assert convert.from_lsp_position(lines, t.Position(0, 1), "utf-16") == Pos(1, 0)
    assert convert.to_lsp_position(lines, Pos(2, 0), "utf-16") == t.Position(1, 0)


def test_lines_split_as_lsp_does():
    assert convert.split_lines("a\r\nb\rc\nd\x0ce\n") == ["a", "b", "c", "d\x0ce"]
    assert convert.to_lsp_position(["a"], Pos(2, 0), "utf-16") == t.Position(1, 0)


def test_range_json_round_trip_and_overlap():
    rng = t.Range(t.Position(1, 2), t.Position(3, 4))
    assert convert.range_from_json(convert.range_to_json(rng)) == rng
    for forged in ([1, 2, 3], [1, 2, 3, -4], [1, 2, 3, 4.0], [True, 0, 0, 0], "1234",
                   {0: 1, 1: 2, 2: 3, 3: 4}, None, 7):
        with pytest.raises(ValueError):
            convert.range_from_json(forged)
    cursor = t.Range(t.Position(3, 4), t.Position(3, 4))
    assert convert.ranges_overlap(rng, cursor)
    assert not convert.ranges_overlap(rng, t.Range(t.Position(3, 5), t.Position(4, 0)))


OLD = "a\nb\nc\nd\ne\n"


@pytest.mark.parametrize("new, expected", [
    (OLD, [1, 2, 3, 4, 5, 6]),
    ("z\n" + OLD, [2, 3, 4, 5, 6, 7]),                       # insert above
    ("a\nb\nC\nd\ne\n", [1, 2, None, 4, 5, 6]),              # edit within a line
    ("a\nb\nc1\nc2\nd\ne\n", [1, 2, None, 5, 6, 7]),         # line cut in two
    ("a\nc\nd\ne\n", [1, None, 2, 3, 4, 5]),                 # line deleted
    ("z\na\nb\nc\nd\ne + (\n", [2, 3, 4, 5, None, 7]),       # edits above and below
])
def test_line_mapper(new, expected):
    mapped = line_mapper(OLD, new)
    assert [mapped(line) for line in range(1, 7)] == expected


def test_remap_drops_what_lost_its_line():
    finding = Finding(
        code="GG101", span=Span.of(4, 0, 4, 1), message=Message("m"),
        related=(Related(Span.of(2, 0, 2, 1), Message("built")),
                 Related(Span.of(3, 0, 3, 1), Message("freed"))),
        fixes=(Fix(Message("a"), (Edit(Span.of(4, 0, 4, 0), "x"),), preferred=True),
               Fix(Message("b"), (Edit(Span.of(3, 0, 3, 0), "y"),))))
    gone = Finding(code="GG102", span=Span.of(3, 0, 3, 1), message=Message("m"))
    [moved] = remap_findings([finding, gone], line_mapper(OLD, "z\na\nb\nc1\nc2\nd\ne\n"))
    assert moved.span == Span.of(6, 0, 6, 1)
    assert [r.span for r in moved.related] == [Span.of(3, 0, 3, 1)]
    assert [f.title.msgid for f in moved.fixes] == ["a"]
    assert moved.fixes[0].edits[0].span == Span.of(6, 0, 6, 0)


@pytest.mark.parametrize("char", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
                                  "\u2029"])
def test_workspace_documents_cut_lines_only_at_line_breaks(char):
    """pygls' own TextDocument cut at these characters too (str.splitlines), so an
    incremental change after one landed a line off."""
    pygls = Workspace(None, t.TextDocumentSyncKind.Incremental,
                      [t.WorkspaceFolder("file:///w", "w")], t.PositionEncodingKind.Utf8)
    workspace = LspWorkspace.like(pygls)
    assert (list(workspace.folders), workspace.position_encoding) == (["file:///w"], "utf-8")
    workspace.put_text_document(t.TextDocumentItem(
        "file:///w/a.py", "python", 1, f"# a{char}b\r\nx = 1\ry = 2\n"))
    workspace.update_text_document(
        t.VersionedTextDocumentIdentifier(2, "file:///w/a.py"),
        t.TextDocumentContentChangePartial(t.Range(t.Position(2, 4), t.Position(2, 5)), "3"))
    doc = workspace.get_text_document("file:///w/a.py")
    assert doc.source == f"# a{char}b\r\nx = 1\ry = 3\n"
    assert doc.lines == (f"# a{char}b\r\n", "x = 1\r", "y = 3\n")
    assert doc.version == 2
