"""The incremental parser (analysis/blocks.py) returns what a whole-text libcst parse
returns, after every edit of long random edit sequences over real training scripts."""

from __future__ import annotations

import random

import pytest
from edits import SCRIPTS, class_heavy, random_edit

from gradguard.analysis.blocks import BlockParser
from gradguard.analysis.engine import parse

def _check(parser: BlockParser, text: str):
    """The incremental parse of ``text`` (None when it does not parse), checked."""
    full, problem = parse(text)
    got, got_problem = parser.parse(text)
    if full is None:
        assert got is None and got_problem == problem
        return None
    assert got is not None, text
    assert got.module.code == full.code  # (== text, but for libcst's own round-trip quirks)
    assert got.module.deep_equals(full), text
    if got.blocks and full.code == text:  # (no statements: all header and footer)
        assert "".join(b.text for b in got.blocks) == text
    assert [b.node for b in got.blocks] == list(got.module.body)
    return got


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_incremental_parse_equals_a_full_parse_after_every_edit(script):
    rng = random.Random(script.name)
    base = script.read_text()
    parser = BlockParser(parse)
    assert _check(parser, base)
    text = good = base
    partial = parsed_ok = 0
    for _ in range(200):
        text = random_edit(rng, text)
        got = _check(parser, text)
        if got is not None:
            good = text
            parsed_ok += 1
            partial += got.reparsed < len(text)
        elif rng.random() < 0.6:  # the user fixes the typo
            text = good
    assert parsed_ok >= 30
    assert partial >= 10  # the region path was taken (and checked) many times


def test_an_edit_reparses_only_the_touched_blocks_and_keeps_the_other_nodes():
    text = "import torch\n\n\ndef a():\n    return 1\n\n\ndef b():\n    return 2\n\n\n" \
           "def c():\n    return 3\n\n\ndef d():\n    return 4\n"
    parser = BlockParser(parse)
    before, _ = parser.parse(text)
    after, _ = parser.parse(text.replace("return 3", "return 33"))
    assert [b.text for b in after.blocks][3] == "\n\ndef c():\n    return 33\n"
    # (blank lines and code at column 0 on both sides: no edit of c's block can join it
    # to b's or d's, so neither is parsed again)
    assert after.reparsed == len("\n\ndef c():\n    return 33\n")
    assert after.blocks[0].node is before.blocks[0].node
    assert after.blocks[2].node is before.blocks[2].node
    assert after.blocks[3].node is not before.blocks[3].node
    assert after.blocks[4].node is before.blocks[4].node
    assert after.starts == (0, 1, 5, 9, 13)


def test_a_block_whose_leading_lines_may_join_the_block_before_is_parsed_with_it():
    # a line of spaces leads c's block (an indented comment there would be b's footer):
    # what an edit of c makes of it depends on b, so b is parsed again with c
    text = "def b():\n    return 2\n  \ndef c():\n    return 3\n\n\nx = 1\n"
    parser = BlockParser(parse)
    parser.parse(text)
    after = _check(parser, text.replace("return 3", "return 33"))
    assert [b.text for b in after.blocks] == [
        "def b():\n    return 2\n", "  \ndef c():\n    return 33\n", "\n\nx = 1\n"]
    assert after.reparsed == len("def b():\n    return 2\n  \ndef c():\n    return 33\n")


def test_an_edit_inside_a_method_reparses_only_nearby_methods():
    text = class_heavy()
    parser = BlockParser(parse)
    parser.parse(text)
    at = text.index("        return")  # in a method's body
    edited = text[:at] + "        y = 1\n" + text[at:]
    got = _check(parser, edited)
    assert got.reparsed < len(text) // 3
    cls_before = parse(text)[0].body[1].body.body
    assert got.module.body[1].body.body[-1].deep_equals(cls_before[-1])


@pytest.mark.parametrize("place", ["first", "last"])
def test_an_edit_inside_a_method_of_the_first_or_last_class_reparses_only_nearby_methods(place):
    # the class's block also holds the module header (first) or footer (last)
    text = class_heavy(place)
    parser = BlockParser(parse)
    before = parser.parse(text)[0].module.body
    cls = 0 if place == "first" else -1
    at = text.index("        return", len(text) // 2)
    edited = text[:at] + "        y = 1\n" + text[at:]
    got = _check(parser, edited)
    assert got.reparsed < len(text) // 3
    members, old = got.module.body[cls].body.body, before[cls].body.body
    assert members[-1] is old[-1] and members[0] is old[0]
    # (and _check found the module deep_equals a full parse: header and footer too)
    assert [line.comment.value for line in got.module.header + got.module.footer
            if line.comment] == {"first": ["# Trainer"], "last": ["# end of the file"]}[place]


@pytest.mark.parametrize("place", ["middle", "first", "last"])
def test_random_edits_in_a_long_class_equal_a_full_parse(place):
    rng = random.Random("class" if place == "middle" else f"class {place}")
    base = text = good = class_heavy(place)
    parser = BlockParser(parse)
    _check(parser, base)
    within = 0
    for _ in range(200):
        text = random_edit(rng, text)
        got = _check(parser, text)
        if got is not None:
            good = text
            within += got.reparsed < len(text) // 3
        elif rng.random() < 0.6:
            text = good
    # (random edits often span methods, or break the parse; cutting the file's tail
    # cuts into a last class)
    assert within >= (3 if place == "last" else 5)
