"""gradguard.suppression: noqa / gradguard: ignore comments and the noqa edit."""

import pytest

from gradguard.analysis.model import Edit, Finding, Message, Span
from gradguard.fixes import apply_edits
from gradguard.suppression import noqa_edit, suppressions, unsuppressed


def finding(code, line, end_line=None):
    return Finding(code, Span.of(line, 0, end_line or line, 4), Message("m"))


@pytest.mark.parametrize("comment, table", [
    ("# noqa", None),
    ("# NOQA", None),
    ("#noqa:GG101", frozenset({"GG101"})),
    ("# noqa: GG101, gg102", frozenset({"GG101", "GG102"})),
    ("# noqa: GG101 GG103", frozenset({"GG101", "GG103"})),
    ("# noqa: backward-through-freed-graph", frozenset({"GG101"})),
    ("# noqa: E501, GG103", frozenset({"E501", "GG103"})),
    ("# noqa: GG101 because the graph is retained", frozenset({"GG101"})),
    ("# noqa:", None),
    ("# type: ignore  # noqa: GG102", frozenset({"GG102"})),
    ("# gradguard: ignore[GG101]", frozenset({"GG101"})),
    ("# gradguard: ignore[graph-reused-across-iterations, GG102]",
     frozenset({"GG103", "GG102"})),
    ("# gradguard: ignore", None),
    ("# gradguard:ignore[GG101]  # noqa: GG103", frozenset({"GG101", "GG103"})),
])
def test_directives(comment, table):
    assert suppressions(f"loss.backward()  {comment}\n") == {1: table}


def test_bare_directive_wins_on_its_line():
    assert suppressions("x  # noqa: GG101  # gradguard: ignore\n") == {1: None}


def test_text_in_strings_is_not_a_comment():
    text = 's = "# noqa"\nt = """\n# noqa: GG101\n"""\nu = 1  # noqa: GG103\n'
    assert suppressions(text) == {5: frozenset({"GG103"})}


def test_unsuppressed_filters_on_the_start_line_only():
    text = "a\nb  # noqa: GG101\nc  # noqa\nd  # noqa: GG103\n"
    kept = unsuppressed([finding("GG101", 1, 2), finding("GG101", 2), finding("GG102", 2),
                         finding("GG101", 3), finding("GG101", 4)], text)
    assert [(f.code, f.span.start.line) for f in kept] == [("GG101", 1), ("GG102", 2), ("GG101", 4)]


def test_crlf_and_cr_lines_are_counted_like_the_engine():
    assert suppressions("a\r\nb  # noqa\r\n") == {2: None}
    assert suppressions("a\rb  # noqa\r") == {2: None}


def test_text_the_tokenizer_rejects_keeps_earlier_comments():
    assert suppressions("x = 1  # noqa: GG101\ny = '''unterminated\n") == {1: frozenset({"GG101"})}


@pytest.mark.parametrize("text, line, code, expected", [
    ("loss.backward()\n", 1, "GG101", "loss.backward()  # noqa: GG101\n"),
    ("loss.backward()   \r\nx\r\n", 1, "GG101", "loss.backward()  # noqa: GG101\r\nx\r\n"),
    ("y\nloss.backward()", 2, "GG101", "y\nloss.backward()  # noqa: GG101"),
    ("f()  # noqa: E501\n", 1, "GG101", "f()  # noqa: E501, GG101\n"),
    ("f()  # noqa: GG103 because\n", 1, "GG101", "f()  # noqa: GG103, GG101 because\n"),
    ("f()  # gradguard: ignore[GG103]\n", 1, "GG101", "f()  # gradguard: ignore[GG103, GG101]\n"),
    ("f()  # type: ignore\n", 1, "GG101", "f()  # type: ignore  # noqa: GG101\n"),
    ("\ufefff()\n", 1, "GG101", "\ufefff()  # noqa: GG101\n"),
    ("call(a,\n     b)\n", 1, "GG101", "call(a,  # noqa: GG101\n     b)\n"),
])
def test_noqa_edit(text, line, code, expected):
    edit = noqa_edit(text, line, code)
    assert apply_edits(text, [edit]) == expected
    assert code in suppressions(expected)[line]


def test_noqa_edit_shape():
    assert noqa_edit("x = 1 \n", 1, "GG101") == Edit(Span.of(1, 5, 1, 6), "  # noqa: GG101")


@pytest.mark.parametrize("text, line", [
    ("f()  # noqa\n", 1),
    ("f()  # noqa: GG101\n", 1),
    ("f()  # noqa: backward-through-freed-graph\n", 1),
    ('s = """\nloss.backward()\n"""\n', 1),
    ('s = """\nloss.backward()\n"""\n', 2),
    ("x = a + \\\n    b\n", 1),
    ("x\n", 2),
])
def test_noqa_edit_not_possible_or_not_needed(text, line):
    assert noqa_edit(text, line, "GG101") is None
