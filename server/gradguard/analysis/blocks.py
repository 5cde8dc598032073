"""Incremental parsing: re-parse only the top-level statements an edit touched.

A module's text is a run of *blocks*: the module header (leading comments and blank
lines) goes with the first top-level statement, each statement owns its leading comments
and blank lines (as libcst assigns them), and the module footer goes with the last one.
:class:`BlockParser` keeps the blocks of the last text it parsed. For a new text it finds
the changed range (common prefix and suffix), re-parses with libcst only the blocks that
range touches, plus the block on each side unless the boundary with it is one no edit of
the range can move (inside a class, only the members it touches plus one on each side), and assembles a :class:`libcst.Module` from
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
from dataclasses import dataclass, replace
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
    characters libcst parsed for it (the whole text, or the changed region); ``exact``
    is false for the few texts libcst does not print back as they were (such as a
    backslash continuation before a statement), where its positions are not the text's."""

    module: cst.Module
    blocks: tuple[Block, ...]
    starts: tuple[int, ...]
    reparsed: int
    exact: bool = True


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


def _blocks(module: cst.Module) -> list[Block]:
    """Blocks of a module parsed alone (header with the first statement, footer with
    the last), their texts as the module prints them."""
    out = []
    body = module.body
    for i, stmt in enumerate(body):
        text = module.code_for_node(stmt)
        if i == 0:
            text = "".join(module.code_for_node(line) for line in module.header) + text
        if i == len(body) - 1:
            text += "".join(module.code_for_node(line) for line in module.footer)
            if not module.has_trailing_newline:  # libcst added one to parse the text
                text = _TRAILING_BREAK.sub("", text)
        out.append(Block(stmt, text, _first_indent(stmt, module.default_indent),
                         len(_LINE_BREAK.findall(text))))
    return out


def module_footer(module: cst.Module, i: int, count: int) -> int | None:
    """The lines of the module's footer that block ``i`` of ``count`` holds after its
    statement (the last block holds them all); None when that block's text lacks the
    line break its statement's code ends with (no trailing newline)."""
    if i != count - 1:
        return 0
    return len(module.footer) if module.has_trailing_newline else None


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


def _starts_alone(text: str, at: int) -> bool:
    """Whether the top-level statement whose block starts at ``at`` in ``text`` starts
    there whatever the text before it holds: ``at`` is a line start and the block's
    leading lines are blank (empty) or comments at column 0, and its first code line
    starts at column 0. (An indented comment there would join an indented body before it
    as its footer; a line of whitespace, a continuation.)"""
    if at <= 0 or at >= len(text) or text[at - 1] not in "\r\n":
        return False
    for line in _LINE_BREAK.split(text[at:at + 4096]):
        if line == "" or line.startswith("#"):
            continue
        return not line[0].isspace()
    return False


class BlockParser:
    """Parses successive texts of one document with ``parse_fn``, re-parsing only what
    changed (see the module docstring); the blocks of the last text that parsed are
    kept across texts that do not."""

    def __init__(self, parse_fn: ParseFn) -> None:
        self._parse = parse_fn
        self._text: str | None = None
        self._last: Parsed | None = None
        self._member_counts: dict = {}

    def parse(self, text: str) -> tuple[Parsed | None, object]:
        """``(parsed, None)`` for a text that parses, ``(None, problem)`` (what
        ``parse_fn`` said) for one that does not."""
        # blocks that do not add up to the text (libcst does not round-trip a few
        # texts, such as one that ends with a lone CR) cannot locate the next edit
        parsed = self._incremental(text) if self._last is not None else None
        whole = parsed is not None and "".join(b.text for b in parsed.blocks) == text
        if not whole:
            module, problem = self._parse(text)
            if module is None:
                return None, problem
            blocks = _blocks(module)
            parsed = Parsed(module, tuple(blocks), _starts(blocks), len(text))
            whole = "".join(b.text for b in blocks) == text
        self._text, self._last = (text, parsed) if whole else (None, None)
        if not whole:
            parsed = replace(parsed, exact=False)
        body = set(parsed.module.body)
        self._member_counts = {n: c for n, c in self._member_counts.items() if n in body}
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
        delta = len(text) - len(old)
        if first == last_i:
            within = self._members(text, first, prefix - offsets[first],
                                   changed_end - offsets[first], offsets[first], delta)
            if within is not None:
                return within
        # a neighbour is parsed again unless the region's boundary with it is one no edit
        # of the region can move (:func:`_starts_alone`)
        if first > 0 and not _starts_alone(text, offsets[first]):
            first -= 1
        if last_i < len(blocks) - 1 and not _starts_alone(text, offsets[last_i + 1] + delta):
            last_i += 1
        for _ in range(3):
            start, end = offsets[first], offsets[last_i + 1] + delta
            if end < start:
                return None
            assembled = self._assemble(text, first, last_i, start, end)
            if assembled != "extend":
                return assembled
            first, last_i = max(first - 1, 0), min(last_i + 1, len(blocks) - 1)
        return None

    def member_lines(self, cls: cst.ClassDef) -> list[int]:
        """Line breaks of each member of a class of the last parsed module (as libcst
        prints it alone: the same count as in place)."""
        counts = self._member_counts.get(cls)
        if counts is None:
            code = self._last.module.code_for_node
            counts = self._member_counts[cls] = [len(_LINE_BREAK.findall(code(m)))
                                                 for m in cls.body.body]
        return counts

    def _members(self, text: str, i: int, cs: int, ce: int, at: int, delta: int):
        """The module of ``text`` when the change (``cs``..``ce`` in the old text of
        block ``i``, which starts at ``at``) lies inside the members of a class: those
        members, and one on each side, re-parsed inside a stand-in class with the same
        indent and newline; None when that does not apply or does not parse alone."""
        old = self._last
        block, module = old.blocks[i], old.module
        cls = block.node
        if not isinstance(cls, cst.ClassDef) or not isinstance(cls.body, cst.IndentedBlock) \
                or cls.body.indent is not None or not cls.body.body:
            return None
        footer = module_footer(module, i, len(old.blocks))
        if footer is None:
            return None
        counts = self.member_lines(cls)
        starts = [0] + [m.end() for m in _LINE_BREAK.finditer(block.text)]
        end_line = block.lines - len(cls.body.footer) - footer
        first_line = end_line - sum(counts)
        bounds = [first_line]
        for n in counts:
            bounds.append(bounds[-1] + n)
        if not (starts[first_line] <= cs and ce < starts[end_line]):
            return None
        a = next(k for k in range(len(counts)) if starts[bounds[k + 1]] > cs)
        b = next(k for k in range(a, len(counts)) if starts[bounds[k + 1]] > ce)
        a, b = max(a - 1, 0), min(b + 1, len(counts) - 1)
        rs, re_ = starts[bounds[a]], starts[bounds[b + 1]]
        newline = module.default_newline
        region = "class _:" + newline + text[at + rs:at + re_ + delta]
        stand_in, _ = self._parse(region)
        if stand_in is None or len(stand_in.body) != 1 or stand_in.footer or \
                stand_in.code != region or \
                stand_in.default_indent != module.default_indent or \
                stand_in.default_newline != newline:
            return None
        body = stand_in.body[0].body
        if not isinstance(body, cst.IndentedBlock) or body.footer or body.indent is not None \
                or not body.body:
            return None
        members = (*cls.body.body[:a], *body.body, *cls.body.body[b + 1:])
        new_cls = cls.with_changes(body=cls.body.with_changes(body=members))
        self._member_counts[new_cls] = counts[:a] + [
            len(_LINE_BREAK.findall(stand_in.code_for_node(m))) for m in body.body] + counts[b + 1:]
        new_text = text[at:at + len(block.text) + delta]
        new_block = Block(new_cls, new_text, block.indent, len(_LINE_BREAK.findall(new_text)))
        blocks = (*old.blocks[:i], new_block, *old.blocks[i + 1:])
        body_nodes = [*module.body[:i], new_cls, *module.body[i + 1:]]
        return Parsed(module.with_changes(body=body_nodes), blocks, _starts(blocks), re_ - rs + delta)

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
        new = _blocks(region)
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
