"""Incremental parsing: re-parse only the top-level statements an edit touched.

A module's text is a run of *blocks*: the module header (leading comments and blank
lines) goes with the first top-level statement, each statement owns its leading comments
and blank lines (as libcst assigns them), and the module footer goes with the last one.
:class:`BlockParser` keeps the blocks of the last text it parsed. For a new text it finds
the changed range (common prefix and suffix), re-parses with libcst only the blocks that
range touches plus one block on each side, and assembles a :class:`libcst.Module` from
the re-parsed statements and the unchanged ones, which keep their node objects (so every
cache keyed by a statement node survives an edit elsewhere).

The assembled module is the one ``libcst.parse_module`` would return (``deep_equals``,
same ``code``): a region is only accepted when it parses on its own, starts and ends at
statement boundaries the text before and after it agrees on, and was parsed with the
file's default indent and newline; anything else (an unclosed bracket or string, an
indented first line, a file whose first indent or first newline changed) falls back to
parsing the whole text. tests/test_blocks.py checks the equality over random edits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

import libcst as cst

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_TRAILING_BREAK = re.compile(r"(?:\r\n|\r|\n)\Z")


@dataclass(frozen=True)
class Block:
    """One top-level statement and its text (leading comments included; the module
    header in the first block, the footer in the last). ``indent`` is the relative
    indent of the block's first indented line (libcst's first ``INDENT`` token), None
    when the block has no indented body; ``lines`` counts its line breaks."""

    node: cst.BaseStatement
    text: str
    indent: str | None
    lines: int


@dataclass(frozen=True)
class Parsed:
    """A parsed text: the module, its blocks in order (their texts concatenate to the
    text) and the 0-based line each block starts on; ``reparsed`` counts the
    characters libcst parsed for it (the whole text, or the changed region)."""

    module: cst.Module
    blocks: tuple[Block, ...]
    starts: tuple[int, ...]
    reparsed: int


def _first_indent(stmt: cst.CSTNode, default: str) -> str | None:
    """The relative indent of the first indented block in ``stmt`` (source order)."""
    todo = [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, cst.IndentedBlock):
            return node.indent if node.indent is not None else default
        if isinstance(node, (cst.SimpleStatementLine, cst.BaseExpression)):
            continue
        todo.extend(reversed(node.children))
    return None


def _blocks(module: cst.Module, code_for) -> list[Block]:
    """Blocks of a module parsed alone (header with the first statement, footer with
    the last), their texts from ``code_for``."""
    out = []
    body = module.body
    for i, stmt in enumerate(body):
        text = code_for(stmt)
        if i == 0:
            text = "".join(module.code_for_node(line) for line in module.header) + text
        if i == len(body) - 1:
            text += "".join(module.code_for_node(line) for line in module.footer)
            if not module.has_trailing_newline:  # libcst added one to parse the text
                text = _TRAILING_BREAK.sub("", text)
        out.append(Block(stmt, text, _first_indent(stmt, module.default_indent),
                         len(_LINE_BREAK.findall(text))))
    return out


def _starts(blocks) -> tuple[int, ...]:
    line, out = 0, []
    for b in blocks:
        out.append(line)
        line += b.lines
    return tuple(out)


def common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix (binary search over C-level comparisons)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the longest common suffix, at most ``limit``."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid:len(a) - lo] == b[len(b) - mid:len(b) - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


ParseFn = Callable[[str], "tuple[cst.Module | None, object]"]
"""A whole-text parser: text -> (module, None), or (None, the problem) when the text
does not parse (the engine's guarded :func:`gradguard.analysis.engine.parse`)."""


class BlockParser:
    """Parses successive texts of one document with ``parse_fn``, re-parsing only what
    changed (see the module docstring); the blocks of the last text that parsed are
    kept across texts that do not."""

    def __init__(self, parse_fn: ParseFn) -> None:
        self._parse = parse_fn
        self._text: str | None = None
        self._last: Parsed | None = None

    def parse(self, text: str) -> tuple[Parsed | None, object]:
        """``(parsed, None)`` for a text that parses, ``(None, problem)`` (what
        ``parse_fn`` said) for one that does not."""
        parsed = self._incremental(text) if self._last is not None else None
        if parsed is not None and "".join(b.text for b in parsed.blocks) != text:
            parsed = None
        if parsed is None:
            module, problem = self._parse(text)
            if module is None:
                return None, problem
            blocks = _blocks(module, module.code_for_node)
            parsed = Parsed(module, tuple(blocks), _starts(blocks), len(text))
        # blocks that do not add up to the text (libcst does not round-trip a few
        # texts, such as one that ends with a lone CR) cannot locate the next edit
        whole = "".join(b.text for b in parsed.blocks) == text
        self._text, self._last = (text, parsed) if whole else (None, None)
        return parsed, None

    def _incremental(self, text: str) -> Parsed | None:
        old, last = self._text, self._last
        blocks = last.blocks
        if old == text:
            return Parsed(last.module, blocks, last.starts, 0)
        if not blocks:
            return None
        offsets = [0]
        for b in blocks:
            offsets.append(offsets[-1] + len(b.text))
        prefix = common_prefix(old, text)
        suffix = common_suffix(old, text, min(len(old), len(text)) - prefix)
        changed_end = len(old) - suffix
        first = next(i for i in range(len(blocks)) if offsets[i + 1] >= prefix)
        last_i = next((i for i in range(first, len(blocks)) if offsets[i + 1] >= changed_end),
                      len(blocks) - 1)
        first, last_i = max(first - 1, 0), min(last_i + 1, len(blocks) - 1)
        delta = len(text) - len(old)
        for _ in range(3):
            start, end = offsets[first], offsets[last_i + 1] + delta
            if end < start:
                return None
            assembled = self._assemble(text, first, last_i, start, end)
            if assembled != "extend":
                return assembled
            first, last_i = max(first - 1, 0), min(last_i + 1, len(blocks) - 1)
        return None

    def _assemble(self, text: str, first: int, last_i: int, start: int, end: int):
        """The module of ``text`` with blocks ``first..last_i`` re-parsed from
        ``text[start:end]``; None when the whole text must be parsed, "extend" when the
        region should grow by a block on each side."""
        old = self._last
        blocks, module = old.blocks, old.module
        at_start, at_end = first == 0, last_i == len(blocks) - 1
        if not at_end and text[start:end].endswith("\r"):
            return None  # libcst drops a lone CR that ends a text: parse it in context
        region, _ = self._parse(text[start:end])
        if region is None:
            return None
        if not region.body:
            return None if at_start and at_end else "extend"
        if region.footer and not at_end:
            return "extend"
        if not at_start and region.default_newline != module.default_newline:
            return None
        new = _blocks(region, region.code_for_node)
        body = list(region.body)
        if region.header and not at_start:
            head = body[0].with_changes(leading_lines=(*region.header, *body[0].leading_lines))
            body[0] = head
            new[0] = Block(head, new[0].text, new[0].indent, new[0].lines)
        all_blocks = [*blocks[:first], *new, *blocks[last_i + 1:]]
        indent = next((b.indent for b in all_blocks if b.indent is not None), "    ")
        first_old = next((b.indent for b in blocks if b.indent is not None), "    ")
        if indent != first_old and any(b.indent is not None for b in blocks[last_i + 1:]):
            return None
        if any(b.indent is not None for b in new) and region.default_indent != indent:
            return None
        if at_start and region.default_newline != module.default_newline and \
                len(all_blocks) > len(new):
            return None
        assembled = cst.Module(
            body=[b.node for b in all_blocks],
            header=region.header if at_start else module.header,
            footer=region.footer if at_end else module.footer,
            encoding=module.encoding,
            default_indent=indent,
            default_newline=region.default_newline if at_start else module.default_newline,
            has_trailing_newline=(region.has_trailing_newline if at_end
                                  else module.has_trailing_newline))
        return Parsed(assembled, tuple(all_blocks), _starts(all_blocks), end - start)
