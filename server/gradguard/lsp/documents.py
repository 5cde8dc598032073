"""Per-document state of the language server, and carrying findings across edits.

The text itself lives in pygls' workspace, as :class:`LspTextDocument`: pygls' document
with its lines cut as LSP cuts them.

Each open document has a :class:`DocumentState`: the analyser that serves it (one
callable, text -> :class:`~gradguard.analysis.model.FileResult`, so an incremental engine
with per-document caches can replace the whole-file one without touching the server),
the pending analysis task, the last text that parsed with its findings, what was last
published, the engine's internal errors last logged, and the modules of the user's its
last analysis read (to analyse it again when one of them changes).

The engine reads the user's modules through :class:`OpenTexts`: an open buffer's text
(unsaved text wins over the disk), else the file on disk.

While the buffer does not parse (the user is mid-keystroke) the server keeps showing the
last good findings, moved to the lines they now sit on: :func:`line_mapper` compares the
last good text with the current one (common leading and trailing lines; the lines
between were edited) and :func:`remap_findings` moves every span through it, dropping
what sat on edited lines.
"""

from __future__ import annotations

import asyncio
import difflib
import os
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from lsprotocol import types as t
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument, Workspace

from gradguard import fixes
from gradguard.analysis.model import EngineError, FileResult, Finding, moved_finding
from gradguard.lsp import convert
from gradguard.lsp.convert import split_lines
from gradguard.workspace import read_text

Analyzer = Callable[..., FileResult]
"""The engine as the server calls it: ``analyzer(text)``, or ``analyzer(text,
imports=...)`` for a file (see :func:`gradguard.analysis.analyze`): a document's full
text -> its findings. Called in a worker thread, one call at a time per server; may keep
caches between calls."""


class LspTextDocument(TextDocument):
    """pygls' :class:`~pygls.workspace.TextDocument` with its lines cut where LSP and
    Python cut them: at ``\\r\\n``, ``\\r`` and ``\\n`` only.

    pygls (2.1) cuts with ``str.splitlines``, which also breaks at ``\\x0b``, ``\\x0c``,
    ``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028`` and ``\\u2029``: after a form feed every
    incremental ``didChange`` (and every position pygls converts) landed a line off and
    the server's text drifted from the editor's. Every pygls method, edit application
    included, reads the lines through :attr:`lines`.
    """

    @property
    def lines(self) -> tuple[str, ...]:
        """The lines of the text, each with its line break (none for an empty text)."""
        return tuple(fixes.split_lines(self.source))


class LspWorkspace(Workspace):
    """pygls' :class:`~pygls.workspace.Workspace` holding :class:`LspTextDocument` s."""

    @classmethod
    def like(cls, workspace: Workspace) -> LspWorkspace:
        """An empty workspace with the root, folders, sync kind and position encoding of
        ``workspace`` (the one pygls makes at ``initialize``, before any document)."""
        return cls(workspace.root_uri, workspace._sync_kind, list(workspace.folders.values()),
                   workspace.position_encoding)

    def _create_text_document(self, doc_uri: str, source: str | None = None,
                              version: int | None = None, language_id: str | None = None
                              ) -> LspTextDocument:
        return LspTextDocument(doc_uri, source=source, version=version,
                               language_id=language_id, sync_kind=self._sync_kind,
                               position_codec=self.position_codec)


@dataclass(frozen=True)
class Snapshot:
    """Findings that belong to one text of a document.

    ``version`` is the LSP document version of ``text``; ``errors`` the engine's
    internal errors in it; ``diagnostics`` are the findings, then the errors, converted
    for the client (empty until published); ``result_id`` names this
    set for pull diagnostics; ``analysed`` is false when the findings were carried over
    from an older text instead of computed for this one; ``generation`` counts the
    configuration changes before the analysis started (a snapshot of an older
    generation is being replaced).
    """

    version: int
    text: str
    findings: tuple[Finding, ...]
    diagnostics: tuple[t.Diagnostic, ...] = ()
    result_id: str = ""
    analysed: bool = True
    generation: int = 0
    errors: tuple[EngineError, ...] = ()
    texts: Mapping[str, str] = field(default_factory=dict, compare=False)
    """The text of each module of the user's the analysis read, by absolute path: the
    related locations and fix edits in those files are converted against these lines."""


class DocumentState:
    """What the server knows about one open document (see the module docstring)."""

    def __init__(self, uri: str, analyzer: Analyzer, path: str | None = None):
        self.uri = uri
        self.path = path  # the file's absolute path (None: not a file: URI)
        self.analyzer = analyzer
        # the modules of the user's the last analysis read: path -> sha256 of its text
        self.deps: dict[str, str] = {}
        # a module it read changed since its last result: an analysis is on its way
        # (pull requests wait for it), and pull clients are asked to refresh after it
        self.stale = False
        self.refresh = False
        self.task: asyncio.Task | None = None
        self.good: Snapshot | None = None
        self.published: Snapshot | None = None
        self.changed = asyncio.Event()
        self.errors: frozenset[tuple] = frozenset()  # (kind, where, root, message) logged
        # the diagnostics last published, by what they were made from (see
        # GradGuardServer.publish): (rules, locale, encoding, {key: diagnostic})
        self.rendered: tuple = (None, None, None, {})

    def cancel(self) -> None:
        """Cancel the pending analysis, if any (a running engine call finishes in its
        thread, and its result is dropped)."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None

    def mark_published(self, snapshot: Snapshot) -> None:
        """Record ``snapshot`` as published and wake the pull requests waiting for it."""
        self.published = snapshot
        self.changed.set()
        self.changed = asyncio.Event()


class OpenTexts:
    """The texts of the user's modules as the engine reads them (``text_of`` of the
    server's :class:`~gradguard.workspace.Workspace`): an open buffer's text, else the
    file on disk.

    Only the worker thread reads it: each analysis sets :attr:`current` to a snapshot of
    the open buffers taken on the event loop when that analysis was scheduled to run
    (one engine call at a time, so the snapshot holds for the whole call)."""

    def __init__(self) -> None:
        self.current: Mapping[str, str] = {}
        self.forgotten = 0  # how many of the module edits the workspace has forgotten

    def text_of(self, path: str) -> str | None:
        text = self.current.get(path)
        return text if text is not None else read_text(path)


def line_mapper(old: str, new: str) -> Callable[[int], int | None]:
    """A function from 1-based line numbers of ``old`` to those of ``new``.

    Lines that the edit left alone keep their content and follow it to its new number
    (:class:`difflib.SequenceMatcher` over the lines between the common head and tail, so
    separate edits above and below a line still find it). Lines that were edited map to
    ``None``, even when the edit kept the line count: their columns are stale, and a fix
    or a squiggle placed by them would land on other text. Lines past the end of ``old``
    (the end-of-text position) follow the end. Cost: linear in the common head and tail,
    the matcher on the rest.
    """
    if old == new:
        return lambda line: line
    a, b = split_lines(old), split_lines(new)
    limit = min(len(a), len(b))
    head = 0
    while head < limit and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < limit - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    middle: list[int | None] = [None] * (len(a) - head - tail)
    matcher = difflib.SequenceMatcher(None, a[head:len(a) - tail], b[head:len(b) - tail],
                                      autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            middle[i1:i2] = range(head + j1 + 1, head + j2 + 1)
    delta = len(b) - len(a)

    def mapped(line: int) -> int | None:
        if line <= head:
            return line
        if line > len(a) - tail:
            return line + delta
        return middle[line - head - 1]

    return mapped


def remap_findings(findings: Sequence[Finding], mapped: Callable[[int], int | None]
                   ) -> tuple[Finding, ...]:
    """``findings`` moved through ``mapped`` (see :func:`line_mapper`) by
    :func:`~gradguard.analysis.model.moved_finding`: a finding whose own span, or a line
    its message quotes, cannot be mapped is dropped; so are related locations and fixes
    (a fix with any edit) that cannot be mapped, so no edit lands on a line it was not
    computed for.
    """
    return tuple(moved for finding in findings
                 if (moved := moved_finding(finding, mapped, strict=False)) is not None)


def path_of(uri: str) -> str | None:
    """The absolute path of a ``file:`` URI (as the engine names the user's modules),
    else None."""
    path = to_fs_path(uri) if uri.startswith("file:") else None
    return os.path.abspath(path) if path else None


class ForeignLines:
    """The lines of the imported modules a snapshot's findings point into: the texts the
    analysis read (``texts``, by path), else the file's current text (open buffer or
    disk, as the engine reads it); each split once."""

    def __init__(self, texts: Mapping[str, str]):
        self.texts = texts
        self._lines: dict[str, list[str]] = {}

    def lines(self, path: str) -> list[str]:
        if path not in self._lines:
            text = self.texts.get(path)
            if text is None:
                text = read_text(path) or ""
            self._lines[path] = convert.split_lines(text)
        return self._lines[path]

    def key(self, finding: Finding) -> tuple:
        """What of the other files ``finding``'s diagnostic is made from: each of its
        spans there with the text of its lines."""
        spans = [r.span for r in finding.related] + [
            e.span for fix in finding.fixes for e in fix.edits]
        return tuple((s.path, s.start.line, s.end.line,
                      tuple(self.lines(s.path)[s.start.line - 1:s.end.line]))
                     for s in spans if s.path is not None)
