"""Positions, source snippets and text edits for the nodes a finding mentions.

Positions come from libcst's ``PositionProvider``, resolved lazily one top-level statement
at a time (the statements the findings point into first), so a 5,000-line file with one
finding pays for the block it is in, not for the whole module. Edits are minimal text insertions/replacements
computed from those positions, so everything outside them (comments, formatting, line
endings) is kept.
"""

from __future__ import annotations

import collections
import os
import re

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from gradguard.analysis.model import Edit, Pos, Span

# Line breaks as Python and libcst count them (not str.splitlines, which also breaks at
# \x0b, \x0c, \x1c-\x1e, \x85, \u2028 and \u2029).
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else ("\r" if "\r" in text else "\n")


def _lines(text: str) -> list[str]:
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class Source:
    """One parsed file: its text, lines, newline style and node positions.

    ``text`` is the source without a BOM; lines are 1-based in :meth:`line`. ``hints``
    lists the top-level statements to resolve positions in first. ``starts`` may give
    the 0-based line each top-level statement (without its leading lines' header) starts
    on, when the caller knows it (the incremental parser does); ``cache`` may hold, per
    top-level statement node, the spans of its nodes relative to its first line, kept by
    the caller across texts (a statement an edit did not touch keeps its node, so its
    positions are shifted, not recomputed). ``members`` may map a top-level class to
    ``[(member, 0-based line its text starts on)]``: its members are then resolved (and
    cached) one by one, the class as a whole only for a node outside them. ``kept`` may
    hold what rules derive from one top-level statement's nodes alone (positions aside),
    keyed by ``(kind, statement node)`` and kept by the caller across texts like
    ``cache`` (:meth:`per_statement`). ``facts`` may be the interpreter's code facts
    (:meth:`~gradguard.analysis.interp.Interpreter.code_fact`), which an incremental
    engine keeps for the nodes an edit left alone (:meth:`node_fact`).
    """

    def __init__(self, text: str, module: cst.Module, hints=(), starts: dict | None = None,
                 cache: dict | None = None, members=None, foreign=(), kept: dict | None = None,
                 facts: dict | None = None):
        self.text = text
        self.module = module
        self.lines = _lines(text)
        self._foreign = list(foreign)  # imports.Loaded: the user's modules imported
        self._foreign_spans: dict = {}  # path -> {node: Span}
        self._foreign_lines: dict = {}
        self.newline = _newline(text)
        self._cache = cache if cache is not None else {}
        self._resolved: list[tuple[int, dict]] = []
        first = [st for st in hints if st in module.body]
        seen = {id(st) for st in first}
        self._todo = collections.deque(first + [st for st in module.body if id(st) not in seen])
        self._starts = starts
        self._members = members
        self.memo: dict = {}  # what rules derive from this text's nodes, built once
        self._kept = kept if kept is not None else {}
        self.derived = 0  # the values :meth:`per_statement` built (not kept) for this text
        self._facts = facts if facts is not None else {}

    def per_statement(self, kind: str, stmt: cst.CSTNode, build):
        """``build(stmt)`` for a top-level statement, kept across texts while the
        statement's node is (``build`` must read nothing but the node)."""
        key = (kind, stmt)
        value = self._kept.get(key)
        if value is None:
            value = self._kept[key] = build(stmt)
            self.derived += 1
        return value

    def node_fact(self, of, node: cst.CSTNode):
        """``of(node)``, read off ``node`` alone (positions aside), kept with the node as
        the interpreter's code facts are."""
        kept = self._facts.get((of, id(node)))
        if kept is None or kept[0] is not node:
            kept = self._facts[(of, id(node))] = (node, of(node))
        return kept[1]

    def _start_lines(self) -> dict:
        """The line (0-based count of lines before it) where each top-level statement's
        code, leading blank lines and comments included, begins."""
        if self._starts is None:
            line = len(self.module.header)
            starts = {}
            for st in self.module.body:
                starts[st] = line
                line += len(_LINE_BREAK.findall(self.module.code_for_node(st)))
            self._starts = starts
        return self._starts

    def site(self, node: cst.CSTNode) -> Span:
        """Where a finding about ``node`` is reported: its :meth:`span`, but for a method
        call written over several lines (``(loss_a\n + loss_b).backward()``), from the
        method's name on (the line the call is read on)."""
        span = self.span(node)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
                span.end.line > span.start.line:
            name = self.span(node.func.attr)
            if name.start.line > span.start.line:
                return Span(name.start, span.end, span.path)
        return span

    def span(self, node: cst.CSTNode) -> Span:
        """The node's range (1-based lines, 0-based character columns); for a node of
        an imported module of the user's, with that module's ``path``.

        Raises KeyError for a node that is not part of this module or those."""
        for offset, spans in self._resolved:
            span = spans.get(node)
            if span is not None:
                return span.shifted(offset) if offset else span
        for spans in self._foreign_spans.values():
            if node in spans:
                return spans[node]
        try:
            return self._local(node)
        except KeyError:
            for loaded in self._foreign:
                if loaded.path not in self._foreign_spans:
                    self._foreign_spans[loaded.path] = {
                        n: Span(Pos(r.start.line, r.start.column), Pos(r.end.line, r.end.column),
                                loaded.path)
                        for n, r in MetadataWrapper(loaded.module, unsafe_skip_copy=True).resolve(
                            PositionProvider).items()}
                    if node in self._foreign_spans[loaded.path]:
                        return self._foreign_spans[loaded.path][node]
            raise

    def line_ref(self, node: cst.CSTNode) -> int | str:
        """The line a node starts on, for a message: its number in this file, or
        ``file.py:N`` in an imported module (a method call over several lines: the line of
        the method's name, :meth:`site`)."""
        span = self.site(node)
        if span.path is None:
            return span.start.line
        return f"{os.path.basename(span.path)}:{span.start.line}"

    def _local(self, node: cst.CSTNode) -> Span:
        while self._todo:
            st = self._todo.popleft()
            if isinstance(st, tuple):  # ("member", node, first line) or ("whole", class)
                if st[0] == "member":
                    _, part, offset, cls = st
                    spans = self._cache.get(part)
                    if spans is None:  # the member alone in a one-line stand-in class
                        stand_in = cst.ClassDef(name=cst.Name("_"), body=cls.body.with_changes(
                            body=[part], footer=()))
                        spans = self._cache[part] = self._resolve(stand_in, -1)
                else:
                    st = st[1]
                    spans, offset = self._whole(st), self._start_lines()[st]
            else:
                parts = self._members(st) if self._members is not None and \
                    isinstance(st, cst.ClassDef) else None
                if parts:
                    self._todo.extendleft(reversed(
                        [("member", m, line, st) for m, line in parts] + [("whole", st)]))
                    continue
                spans, offset = self._whole(st), self._start_lines()[st]
            self._resolved.append((offset, spans))
            span = spans.get(node)
            if span is not None:
                return span.shifted(offset) if offset else span
        raise KeyError(node)

    def _whole(self, st: cst.CSTNode) -> dict:
        """Spans of the nodes of a top-level statement, relative to its first line."""
        spans = self._cache.get(st)
        if spans is None:
            spans = self._cache[st] = self._resolve(st, 0)
        return spans

    def _resolve(self, stmt: cst.CSTNode, shift: int) -> dict:
        """Positions of the nodes of ``stmt`` printed alone (as the module prints it),
        lines moved by ``shift``."""
        part = self.module.with_changes(body=[stmt], header=(), footer=())
        return {n: Span(Pos(r.start.line + shift, r.start.column),
                        Pos(r.end.line + shift, r.end.column))
                for n, r in MetadataWrapper(part, unsafe_skip_copy=True).resolve(
                    PositionProvider).items()}

    def line(self, n: int, path: str | None = None) -> str:
        """Line ``n`` (1-based) without its line ending ('' past the end), of this file
        or of the imported module at ``path``."""
        lines = self._lines_of(path)
        return lines[n - 1] if 0 < n <= len(lines) else ""

    def text_of(self, path: str | None) -> str:
        """The text of this file (None) or of the imported module at ``path``."""
        return self.text if path is None else next(m.text for m in self._foreign
                                                   if m.path == path)

    def _newline_of(self, path: str | None) -> str:
        return self.newline if path is None else _newline(self.text_of(path))

    def _lines_of(self, path: str | None) -> list[str]:
        if path is None:
            return self.lines
        lines = self._foreign_lines.get(path)
        if lines is None:
            lines = self._foreign_lines[path] = _lines(self.text_of(path))
        return lines

    def code(self, node: cst.CSTNode, limit: int = 60) -> str:
        """The node's source text on one line, shortened to ``limit`` characters."""
        text = " ".join(self.module.code_for_node(node).split())
        return text if len(text) <= limit else text[: limit - 3] + "..."

    def indent_of(self, stmt: cst.CSTNode) -> str:
        """The indentation (as written) of the line a statement starts on."""
        span = self.span(stmt)
        line = self.line(span.start.line, span.path)
        return line[: len(line) - len(line.lstrip())]

    # edits -----------------------------------------------------------------
    def insert_line_after(self, stmt: cst.CSTNode, *codes: str) -> Edit:
        """Insert each of ``codes`` as a new line after ``stmt`` (in order), at ``stmt``'s
        indentation; one edit, so the lines cannot be reordered."""
        span = self.span(stmt)
        end = span.end.line
        col = len(self.line(end, span.path))
        indent = self.indent_of(stmt)
        return Edit(Span(Pos(end, col), Pos(end, col), span.path),
                    "".join(f"{self._newline_of(span.path)}{indent}{code}" for code in codes))

    def insert_line_before(self, stmt: cst.CSTNode, *codes: str) -> Edit:
        """Insert each of ``codes`` as a new line before ``stmt`` (in order), at
        ``stmt``'s indentation; one edit."""
        span = self.span(stmt)
        start = span.start.line
        indent = self.indent_of(stmt)
        return Edit(Span(Pos(start, 0), Pos(start, 0), span.path),
                    "".join(f"{indent}{code}{self._newline_of(span.path)}" for code in codes))

    def delete_lines(self, stmt: cst.CSTNode) -> Edit:
        """Delete the whole lines a statement occupies."""
        s = self.span(stmt)
        if s.end.line < len(self._lines_of(s.path)):
            return Edit(Span(Pos(s.start.line, 0), Pos(s.end.line + 1, 0), s.path), "")
        prev = s.start.line - 1
        return Edit(Span(Pos(prev, len(self.line(prev, s.path))),
                         Pos(s.end.line, len(self.line(s.end.line, s.path))), s.path), "")

    def append_to(self, node: cst.CSTNode, text: str) -> Edit:
        """Insert ``text`` right after ``node``."""
        span = self.span(node)
        return Edit(Span(span.end, span.end, span.path), text)

    def prepend_to(self, node: cst.CSTNode, text: str) -> Edit:
        """Insert ``text`` right before ``node``."""
        span = self.span(node)
        return Edit(Span(span.start, span.start, span.path), text)

    def add_keyword(self, call: cst.Call, keyword: str, value: str) -> Edit:
        """Set ``keyword=value`` in a call: replace an existing value or add the argument."""
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == keyword:
                return Edit(self.span(arg.value), value)
        if call.args:
            return self.append_to(call.args[-1].value, f", {keyword}={value}")
        span = self.span(call)
        close = Pos(span.end.line, span.end.column - 1)
        return Edit(Span(close, close, span.path), f"{keyword}={value}")

    def statement_code(self, stmt: cst.SimpleStatementLine) -> str:
        """The code of a one-line statement without its leading blank lines or comments."""
        return self.module.code_for_node(stmt.with_changes(leading_lines=())).rstrip("\r\n")
