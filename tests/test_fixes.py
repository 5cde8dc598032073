"""gradguard.fixes: applying edits and choosing compatible fixes."""

import pytest

from gradguard.analysis.model import Edit, Fix, Message, Span
from gradguard.fixes import (
    EditConflict, apply_edits, apply_fixes, compatible_fixes, fixes_conflict, newline_of,
    split_lines,
)


def edit(line, col, end_line, end_col, text):
    return Edit(Span.of(line, col, end_line, end_col), text)


def fix(*edits):
    return Fix(Message("fix"), tuple(edits), preferred=True)


def test_split_lines_keeps_endings_and_ignores_form_feeds():
    assert split_lines("a\r\nb\rc\nd\x0ce") == ["a\r\n", "b\r", "c\n", "d\x0ce"]
    assert split_lines("") == []
    assert split_lines("x\n") == ["x\n"]


def test_newline_of():
    assert newline_of("a\r\nb\n") == "\r\n"
    assert newline_of("a\rb") == "\r"
    assert newline_of("abc") == "\n"


def test_replacement_and_insertion_in_any_order():
    text = "h = rnn(x, h)\nloss.backward()\n"
    edits = [edit(2, 4, 2, 4, ".detach()"), edit(1, 11, 1, 12, "h.detach()")]
    assert apply_edits(text, edits) == "h = rnn(x, h.detach())\nloss.detach().backward()\n"


def test_columns_count_code_points():
    assert apply_edits("s = 'é漢'; h\n", [edit(1, 10, 1, 11, "g")]) == "s = 'é漢'; g\n"


def test_crlf_is_kept_and_new_lines_follow_the_file():
    text = "a = 1\r\nb = 2\r\n"
    out = apply_edits(text, [edit(2, 0, 2, 0, "with torch.no_grad():\n    ")])
    assert out == "a = 1\r\nwith torch.no_grad():\r\n    b = 2\r\n"


def test_lone_cr_lines():
    assert apply_edits("a\rb\r", [edit(2, 1, 2, 1, "!\n")]) == "a\rb!\r\r"


def test_bom_is_kept_and_not_counted():
    assert apply_edits("\ufeffx = h\n", [edit(1, 4, 1, 5, "g")]) == "\ufeffx = g\n"


def test_insert_at_end_of_text():
    assert apply_edits("a\n", [edit(2, 0, 2, 0, "b\n")]) == "a\nb\n"
    assert apply_edits("", [edit(1, 0, 1, 0, "x")]) == "x"


def test_insertions_at_one_place_keep_their_order():
    assert apply_edits("f()", [edit(1, 2, 1, 2, "a"), edit(1, 2, 1, 2, "b")]) == "f(ab)"


def test_insertion_at_the_start_of_a_replacement():
    assert apply_edits("abc", [edit(1, 1, 1, 2, "B"), edit(1, 1, 1, 1, "+")]) == "a+Bc"


def test_overlapping_edits_are_refused():
    with pytest.raises(EditConflict, match="overlap"):
        apply_edits("abcdef", [edit(1, 0, 1, 3, "x"), edit(1, 2, 1, 4, "y")])
    with pytest.raises(EditConflict, match="overlap"):
        apply_edits("abcdef", [edit(1, 0, 1, 4, "x"), edit(1, 2, 1, 2, "y")])


@pytest.mark.parametrize("pos", [(1, 4), (3, 0), (0, 0), (2, 1)])
def test_positions_outside_the_text_are_refused(pos):
    with pytest.raises(EditConflict, match="outside the text"):
        apply_edits("abc\n", [edit(*pos, *pos, "x")])


def test_multi_line_replacement():
    text = "a = (1,\n     2)\nb = 3\n"
    assert apply_edits(text, [edit(1, 4, 2, 7, "0")]) == "a = 0\nb = 3\n"


def test_fixes_conflict_when_they_overlap_or_touch():
    a = fix(edit(1, 0, 1, 3, "x"))
    assert fixes_conflict(a, fix(edit(1, 3, 1, 3, "y")))
    assert fixes_conflict(a, fix(edit(1, 1, 1, 2, "y")))
    assert not fixes_conflict(a, fix(edit(1, 4, 1, 5, "y")))
    assert not fixes_conflict(a, fix(edit(2, 0, 2, 1, "y")))


def test_compatible_fixes_keep_the_first_of_conflicting_ones():
    first = fix(edit(1, 0, 1, 3, "new"))
    second = fix(edit(1, 3, 1, 6, "new"))
    third = fix(edit(2, 0, 2, 3, "new"))
    assert compatible_fixes([first, second, third]) == [first, third]
    assert apply_fixes("oldold\nold\n", [first, third]) == "newold\nnew\n"
