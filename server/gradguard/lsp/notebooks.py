"""Jupyter notebooks in the language server: LSP 3.17 notebook document sync.

A notebook the client syncs (``notebookDocument/didOpen``; :data:`SYNC`: Jupyter
notebooks, every cell synced so that cells are numbered as Jupyter and VS Code number
them) is analysed as one program, its code cells in order, as ``gradguard check`` reads a
``.ipynb`` file (:func:`gradguard.notebooks.program`: the same placeholders for IPython
syntax, the same :class:`~gradguard.notebooks.CellMap`; a cell is Python when its text
document's language is). pygls' workspace keeps the notebook and its cells' text
documents; this module keeps one :class:`NotebookState` per notebook and maps the
program's findings back to cells:

* diagnostics are published per cell URI, every code cell each time (an empty list when
  its findings went away), with line numbers in messages counted in cells ("line 5 of
  cell 2"); related locations and fix edits in another cell carry that cell's URI;
* hover on a cell answers from the notebook's findings;
* quick fixes edit the cells (a fix spanning cells, or touching a magic's placeholder,
  is not offered: :meth:`~gradguard.notebooks.CellMap.fix_applies`, as ``--fix``); code
  actions are served from a per-cell :class:`~gradguard.lsp.documents.Snapshot`.

Any change (a cell's text, cells added, removed or moved) re-analyses the notebook with
the usual debounce on the server's worker thread. A cell of a synced notebook is never
analysed alone through text sync.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import TYPE_CHECKING, Mapping, Sequence

import attrs
from lsprotocol import types as t

from gradguard import explain
from gradguard.analysis.model import EngineError, Finding, Pos, Span, moved_error
from gradguard.lsp import convert
from gradguard.lsp.documents import (DocumentState, ForeignLines, Snapshot, line_mapper,
                                     path_of, remap_findings)
from gradguard.notebooks import CellMap, CodeCell, program

if TYPE_CHECKING:
    from gradguard.lsp.server import GradGuardServer, Placer

SYNC = t.NotebookDocumentSyncOptions(
    notebook_selector=[t.NotebookDocumentFilterWithNotebook(notebook="jupyter-notebook")],
    save=True)
"""The server's ``notebookDocumentSync``: Jupyter notebooks, all their cells (markdown
too, so that cell numbers are the notebook's), saves notified."""


@dataclasses.dataclass(frozen=True)
class View:
    """One state of a synced notebook: its cells' URIs (all cells, in order), the code
    cells' texts and versions by URI, and the program of the code cells with its
    :class:`~gradguard.notebooks.CellMap`."""

    uris: tuple[str, ...]
    texts: Mapping[str, str]
    versions: Mapping[str, int]
    program: str
    cells: CellMap

    @classmethod
    def of(cls, ls: GradGuardServer, notebook: t.NotebookDocument) -> View:
        uris, texts, versions, code = [], {}, {}, []
        for number, cell in enumerate(notebook.cells, start=1):
            uris.append(cell.document)
            if cell.kind != t.NotebookCellKind.Code:
                continue
            doc = ls.open_document(cell.document)
            text = doc.source if doc is not None else ""
            texts[cell.document], versions[cell.document] = text, doc.version if doc else 0
            code.append(CodeCell(number, text, doc is not None and doc.language_id == "python"))
        text, cells = program(code)
        return cls(tuple(uris), texts, versions, text, cells)

    def number(self, cell_uri: str) -> int | None:
        """The 1-based number of the cell ``cell_uri`` (None: not one of this notebook's)."""
        return self.uris.index(cell_uri) + 1 if cell_uri in self.uris else None

    def placer(self, ls: GradGuardServer, notebook_uri: str, foreign) -> Placer:
        """Where a span of the program is: the cell holding its start and the range there
        (an end in a later cell clamped to the end of the start's cell; an end past a
        cell's last line, where the program added a line break, at the cell's end); a
        span in an imported module as in a file."""
        enc = ls.encoding
        lines = {uri: convert.split_lines(text) for uri, text in self.texts.items()}
        files = ls.place_in(notebook_uri, [], foreign)

        def place(span: Span) -> tuple[str, t.Range]:
            if span.path is not None:
                return files(span)
            cell, local, end_cell = self.cells.locate_span(span)
            uri = self.uris[cell - 1]
            cell_lines = lines[uri]
            last = Pos(len(cell_lines), len(cell_lines[-1])) if cell_lines else Pos(1, 0)
            end = last if end_cell != cell else min(local.end, last)
            return uri, convert.to_lsp_range(cell_lines, Span(min(local.start, end), end), enc)
        return place


@dataclasses.dataclass(frozen=True)
class NotebookSnapshot:
    """Findings (program positions) and internal errors that belong to one
    :class:`View`; ``texts`` the imported modules the analysis read; ``diagnostics`` by
    cell URI once published."""

    version: int
    view: View
    findings: tuple[Finding, ...]
    errors: tuple[EngineError, ...] = ()
    texts: Mapping[str, str] = dataclasses.field(default_factory=dict)
    analysed: bool = True
    generation: int = 0
    diagnostics: Mapping[str, tuple[t.Diagnostic, ...]] = dataclasses.field(
        default_factory=dict)


class NotebookState(DocumentState):
    """What the server knows about one synced notebook (``uri``: the notebook's; ``path``
    its file, whose folder the imports are looked up from): a document state whose
    snapshots are :class:`NotebookSnapshot` s, plus the cells last published to."""

    def __init__(self, uri, analyzer, path=None):
        super().__init__(uri, analyzer, path)
        self.published_cells: frozenset[str] = frozenset()


def current_view(ls: GradGuardServer, state: NotebookState) -> View | None:
    notebook = ls.workspace.get_notebook_document(notebook_uri=state.uri)
    return View.of(ls, notebook) if notebook is not None else None


async def analyse(ls: GradGuardServer, state: NotebookState, delay_ms: int) -> None:
    """Analyse the notebook of ``state`` (after ``delay_ms``) and publish its cells'
    diagnostics, unless a newer change superseded it meanwhile."""
    await ls.settings_ready.wait()
    if delay_ms:
        await asyncio.sleep(delay_ms / 1000)
    view = current_view(ls, state)
    if view is None or ls.notebooks.get(state.uri) is not state:
        return
    notebook = ls.workspace.get_notebook_document(notebook_uri=state.uri)
    version, generation = notebook.version, ls.generation
    if not ls.editor_settings_for(state.uri).enable:
        publish(ls, state, NotebookSnapshot(version, view, (), generation=generation))
        ls.refreshed(state)
        return
    progress = ls.analysis_progress(state.uri)
    try:
        result, texts = await ls.engine_result(state, view.program)
        if ls.notebooks.get(state.uri) is not state or current_view(ls, state) != view \
                or generation != ls.generation:
            return  # superseded: a newer analysis is (or will be) scheduled
        if result is not None and result.syntax_error is None:
            ls.report_errors(state, result.errors)
            state.deps = dict(result.deps)
            ls.known_deps.update(state.deps)
            state.good = NotebookSnapshot(
                version, view, tuple(view.cells.finding(f) for f in result.findings),
                result.errors, texts, generation=generation)
            publish(ls, state, state.good)
        else:
            publish(ls, state, carried(ls, state, version, view))
        ls.refreshed(state)
    finally:
        progress.done()


def carried(ls: GradGuardServer, state: NotebookState, version: int, view: View
            ) -> NotebookSnapshot:
    """The last good findings of ``state`` moved onto the program of ``view`` (see
    :func:`~gradguard.lsp.documents.line_mapper`); nothing if there are none."""
    good = state.good
    if good is None:
        return NotebookSnapshot(version, view, (), analysed=False, generation=ls.generation)
    mapped = line_mapper(good.view.program, view.program)
    errors = (moved_error(e, mapped) for e in good.errors)
    findings = tuple(view.cells.finding(f) for f in remap_findings(good.findings, mapped))
    return NotebookSnapshot(version, view, findings,
                            tuple(e for e in errors if e is not None), good.texts,
                            analysed=False, generation=ls.generation)


def publish(ls: GradGuardServer, state: NotebookState, snapshot: NotebookSnapshot) -> None:
    """Convert ``snapshot`` to diagnostics per cell, record it, and push each code cell's
    (an empty list for a cell without findings, and for a cell published to before that
    left the notebook). Always pushed: VS Code's client pulls only for documents in text
    editors."""
    view = snapshot.view
    rules, locale = ls.config_for(state.uri), ls.locale_for(state.uri)
    lines = convert.split_lines(view.program)
    place = view.placer(ls, state.uri, ForeignLines(snapshot.texts))
    by_cell: dict[str, list[t.Diagnostic]] = {uri: [] for uri in view.texts}
    for f in snapshot.findings:
        home = view.cells.cell_of(f.span.start.line)
        for uri, d in ls.diagnostics(f, place, lines, rules, locale,
                                     lambda m, home=home: view.cells.message(m, home)):
            by_cell.setdefault(uri, []).append(
                attrs.evolve(d, data={**d.data, "version": view.versions.get(uri, 0)}))
    for error in snapshot.errors:
        uri, rng = place(error.span)
        by_cell.setdefault(uri, []).append(
            attrs.evolve(ls.error_diagnostic(lines, error, locale), range=rng))
    diagnostics = {uri: tuple(ds) for uri, ds in by_cell.items()}
    gone = state.published_cells - set(diagnostics)
    state.published_cells = frozenset(diagnostics)
    state.mark_published(dataclasses.replace(snapshot, diagnostics=diagnostics))
    for uri, ds in diagnostics.items():
        ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(
            uri=uri, version=view.versions.get(uri), diagnostics=list(ds)))
    for uri in sorted(gone):
        ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def owner(ls: GradGuardServer, cell_uri: str) -> NotebookState | None:
    """The state of the synced notebook holding the cell ``cell_uri``, else None."""
    if not ls.notebooks:
        return None
    notebook = ls.workspace.get_notebook_document(cell_uri=cell_uri)
    return ls.notebooks.get(notebook.uri) if notebook is not None else None


def cell_snapshot(ls: GradGuardServer, cell_uri: str) -> Snapshot | None:
    """The published diagnostics of the cell ``cell_uri`` as a document snapshot (its
    version and text; ``texts``: the other cells' and the imported modules' texts the
    analysis read, by URI and path), if the notebook's published snapshot belongs to its
    current cells and configuration; else None. It has no findings: fix-all is not
    offered in a notebook."""
    state = owner(ls, cell_uri)
    snapshot = state.published if state is not None else None
    if snapshot is None or snapshot.generation != ls.generation or \
            current_view(ls, state) != snapshot.view or cell_uri not in snapshot.view.texts:
        return None
    view = snapshot.view
    return Snapshot(view.versions[cell_uri], view.texts[cell_uri], (),
                    diagnostics=snapshot.diagnostics.get(cell_uri, ()),
                    generation=snapshot.generation, texts={**snapshot.texts, **view.texts})


def hover(ls: GradGuardServer, cell_uri: str, position: t.Position) -> str | None:
    """The hover Markdown at ``position`` in the cell ``cell_uri`` of a synced notebook:
    from the notebook's published findings (moved onto its current program), line
    numbers counted in cells; None outside a code cell."""
    state = owner(ls, cell_uri)
    view = current_view(ls, state) if state is not None else None
    if view is None or cell_uri not in view.texts or \
            not ls.editor_settings_for(state.uri).enable:
        return None
    pos = convert.from_lsp_position(convert.split_lines(view.texts[cell_uri]), position,
                                    ls.encoding)
    at = view.cells.position(view.number(cell_uri), pos)
    findings: Sequence[Finding] = ()
    if state.published is not None:
        findings = remap_findings(state.published.findings,
                                  line_mapper(state.published.view.program, view.program))
    return explain.hover_markdown(view.program, at, findings, ls.locale_for(state.uri),
                                  cells=view.cells)


# --------------------------------------------------------------------- handlers


def did_open(ls: GradGuardServer, params: t.DidOpenNotebookDocumentParams) -> None:
    uri = params.notebook_document.uri
    old = ls.notebooks.pop(uri, None)
    if old is not None:
        old.cancel()
    for cell in params.cell_text_documents:  # analysed with the notebook from now on
        alone = ls.documents.pop(cell.uri, None)
        if alone is not None:
            alone.cancel()
    ls.notebooks[uri] = NotebookState(uri, ls.analyzer_factory(), path_of(uri))
    ls.schedule(uri, 0)


def did_change(ls: GradGuardServer, params: t.DidChangeNotebookDocumentParams) -> None:
    uri = params.notebook_document.uri
    state = ls.notebooks.get(uri)
    if state is None:
        return
    settings = ls.editor_settings_for(uri)
    if settings.run == "onType" or not ls.settings_ready.is_set():
        ls.schedule(uri, settings.debounce_ms)
        return
    view = current_view(ls, state)
    notebook = ls.workspace.get_notebook_document(notebook_uri=uri)
    publish(ls, state, carried(ls, state, notebook.version, view))


def did_save(ls: GradGuardServer, params: t.DidSaveNotebookDocumentParams) -> None:
    state = ls.notebooks.get(params.notebook_document.uri)
    if state is None:
        return
    published = state.published
    if not (published is not None and published.analysed
            and published.view == current_view(ls, state)
            and published.generation == ls.generation):
        ls.schedule(state.uri, 0)


def did_close(ls: GradGuardServer, params: t.DidCloseNotebookDocumentParams) -> None:
    state = ls.notebooks.pop(params.notebook_document.uri, None)
    if state is None:
        return
    state.cancel()
    cells = state.published_cells | {c.uri for c in params.cell_text_documents}
    state.published_cells = frozenset()
    for uri in sorted(cells):
        ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
