"""``gradguard lsp``: the pygls 2 language server, a thin adapter over the engine.

Diagnostics are analysed off the event loop (one worker thread runs the engine, see
:data:`~gradguard.lsp.documents.Analyzer`), debounced on change, never published for a
version that is no longer current, pushed with ``textDocument/publishDiagnostics`` or
pulled with ``textDocument/diagnostic`` when the client supports it. Code actions,
hover (in the user's locale), configuration and commands are served from the last
published findings of each document, so they answer while an analysis runs.

A document with a ``file:`` URI is analysed with the imports of the user's modules
followed (one :class:`~gradguard.workspace.Workspace` per server; an open buffer's text,
unsaved, wins over the disk). Related locations and fix edits may then be in another
file; each document remembers the modules its last analysis read, and is analysed again
when one of them changes (edited in its buffer, saved, closed, or changed on disk).

A Jupyter notebook the client syncs as a notebook (``notebookDocumentSync``) is analysed
as one program and published per cell: see :mod:`gradguard.lsp.notebooks`.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import itertools
import logging
import posixpath
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Iterable, Mapping, Sequence
from urllib.parse import unquote, urlparse

import attrs
from lsprotocol import types as t
from pygls.capabilities import get_capability
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.uris import from_fs_path, to_fs_path

from gradguard import __version__, config, explain, i18n
from gradguard.analysis import incremental_analyzer
from gradguard.analysis.imports import digest
from gradguard.analysis.model import (EngineError, FileResult, Finding, Message, Span,
                                      finding_lines, fix_sites, moved_error)
from gradguard.fixes import compatible_fixes
from gradguard.lsp import convert, notebooks
from gradguard.lsp.documents import (Analyzer, DocumentState, ForeignLines, LspWorkspace,
                                     OpenTexts, Snapshot, line_mapper, path_of, remap_findings)
from gradguard.lsp.settings import DEFAULTS, EditorSettings, apply_settings, effective_config
from gradguard.rules import N_, engine_error_message, rule_for
from gradguard.suppression import noqa_edit, unsuppressed
from gradguard.workspace import Workspace, read_text

logger = logging.getLogger(__name__)

SOURCE = "gradguard"
"""``Diagnostic.source`` of every diagnostic this server publishes."""

FIX_ALL_KIND = "source.fixAll.gradguard"
"""The code action kind of "apply every preferred fix in the file"."""

EXPLAIN_COMMAND = "gradguard.explain"
FIX_ALL_COMMAND = "gradguard.fixAll"

_SEVERITY = {
    "error": t.DiagnosticSeverity.Error,
    "warning": t.DiagnosticSeverity.Warning,
    "info": t.DiagnosticSeverity.Information,
}

Placer = Callable[[Span], "tuple[str, t.Range]"]
"""Where a span of an analysed text is shown: the URI of its document and the range there
(see :meth:`GradGuardServer.place_in`)."""

_CLIENT_TIMEOUT = 30.0  # seconds to wait for the client's answer to our requests

PROGRESS_DELAY = 0.5
"""Seconds an analysis runs without a result before the client is shown its work-done
progress ("GradGuard: analysing train.py"): a fast one shows nothing."""


class GradGuardProtocol(LanguageServerProtocol):
    """pygls' protocol, with an :class:`~gradguard.lsp.documents.LspWorkspace` (lines
    cut at ``\\r\\n``, ``\\r``, ``\\n`` only) in place of the workspace pygls makes at
    ``initialize``."""

    @lsp_method(t.INITIALIZE)
    def lsp_initialize(self, params: t.InitializeParams):
        result = yield from super().lsp_initialize(params)
        self._workspace = LspWorkspace.like(self.workspace)
        return result


class GradGuardServer(LanguageServer):
    """The server object: pygls' :class:`LanguageServer` plus the per-document state.

    ``analyzer_factory`` makes the analyser of each newly opened document (by default
    :func:`gradguard.analysis.incremental_analyzer`: the engine that reuses the work of
    the document's previous texts; tests plug in others here).
    """

    def __init__(self, analyzer_factory: Callable[[], Analyzer] | None = None):
        super().__init__("gradguard", __version__,
                         text_document_sync_kind=t.TextDocumentSyncKind.Incremental,
                         notebook_document_sync=notebooks.SYNC,
                         protocol_cls=GradGuardProtocol)
        self.analyzer_factory = analyzer_factory or incremental_analyzer
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gradguard-engine")
        self.documents: dict[str, DocumentState] = {}
        self.notebooks: dict[str, notebooks.NotebookState] = {}  # synced notebooks, by URI
        self.init_options: Any = None
        self.client_locale: str | None = None
        self.editor_settings: EditorSettings = DEFAULTS
        self.folder_settings: dict[str, EditorSettings] = {}
        self.projects = config.SettingsResolver()
        self.settings_ready = asyncio.Event()
        self.generation = 0
        self.pull = False
        self._result_ids = itertools.count(1)
        self._shown_problems: set[str] = set()
        # the user's modules: texts read in the worker thread (OpenTexts), look-ups and
        # loaded modules kept by the workspace (root None: each file's project root)
        self.open_texts = OpenTexts()
        self.modules = Workspace(text_of=self.open_texts.text_of)
        self.known_deps: set[str] = set()  # every module an analysis ever read
        # changes to those (each the path changed): the workspace forgets the loaded
        # modules they make stale
        self.module_edits: list[str] = []
        self.progress_delay = PROGRESS_DELAY
        self._progress_tokens = itertools.count(1)

    # ----------------------------------------------------------------- settings

    def editor_settings_for(self, uri: str) -> EditorSettings:
        """The editor settings of the workspace folder holding ``uri`` (the longest
        matching folder; a synced notebook's cell: the notebook's), else the global ones."""
        uri = self.owner_uri(uri)
        folders = [f for f in self.folder_settings if uri.startswith(f.rstrip("/") + "/")]
        return self.folder_settings[max(folders, key=len)] if folders else self.editor_settings

    def project_config(self, uri: str) -> config.Settings:
        """The ``[tool.gradguard]`` settings that govern ``uri`` (defaults for a document
        that is not a file, or when the governing ``pyproject.toml`` is invalid: its
        problem is shown to the user; a synced notebook's cell: the notebook's)."""
        uri = self.owner_uri(uri)
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if path is None:
            return config.Settings()
        try:
            return self.projects.for_path(path)
        except config.ConfigError as error:
            self.show_problems(error.messages, key=f"project:{path}")
            return config.Settings()

    def owner_uri(self, uri: str) -> str:
        """The URI of the synced notebook holding the cell ``uri``, else ``uri``."""
        state = notebooks.owner(self, uri)
        return state.uri if state is not None else uri

    def states(self) -> list[DocumentState]:
        """The state of every open document and synced notebook."""
        return [*self.documents.values(), *self.notebooks.values()]

    def open_document(self, uri: str):
        """The open document ``uri`` (pygls keys documents by the percent-decoded URI, as
        in VS Code's notebook cells ``vscode-notebook-cell:...#W0sZmlsZQ%3D%3D``), or None."""
        return self.workspace.text_documents.get(unquote(uri))

    def config_for(self, uri: str) -> config.Settings:
        """The effective rule settings of ``uri``: project, then editor on top."""
        return effective_config(self.editor_settings_for(uri), self.project_config(uri))

    def locale_for(self, uri: str) -> str:
        """The shipped locale for messages about ``uri``: the editor's ``locale``
        setting, else the client's ``InitializeParams.locale``, else the project's
        ``locale``, else the environment (``LANG``...); ``zh-cn`` -> ``zh_CN``."""
        tag = self.editor_settings_for(uri).locale or self.client_locale
        if not tag and uri:
            tag = self.project_config(uri).locale
        return i18n.normalize_locale(tag) if tag else i18n.default_locale()

    def capability(self, path: str, default: Any = None) -> Any:
        """A client capability by dotted path (``text_document.hover.content_format``)."""
        return get_capability(self.client_capabilities, path, default)

    @property
    def encoding(self) -> str:
        """The negotiated position encoding (``utf-16`` unless agreed otherwise)."""
        return self.workspace.position_encoding or t.PositionEncodingKind.Utf16

    async def load_settings(self) -> None:
        """(Re)read the editor settings: ``initializationOptions``, then
        ``workspace/configuration`` for section ``gradguard`` globally and for each
        workspace folder. Shows each newly invalid setting with ``window/showMessage``."""
        settings, problems = apply_settings(DEFAULTS, self.init_options, "initializationOptions")
        folders = list(self.workspace.folders.values())
        values: Sequence[Any] = []
        if self.capability("workspace.configuration", False):
            items = [t.ConfigurationItem(section=SOURCE)] + [
                t.ConfigurationItem(scope_uri=f.uri, section=SOURCE) for f in folders]
            try:
                values = await asyncio.wait_for(
                    self.workspace_configuration_async(t.ConfigurationParams(items=items)),
                    _CLIENT_TIMEOUT)
            except Exception as error:  # the client failed us: keep what we have
                logger.warning("workspace/configuration failed: %s", error)
        values = list(values) + [None] * (len(folders) + 1 - len(values))
        settings, more = apply_settings(settings, values[0], "workspace settings")
        problems += more
        self.editor_settings = settings
        self.folder_settings = {}
        for folder, raw in zip(folders, values[1:]):
            self.folder_settings[folder.uri], more = apply_settings(
                settings, raw, f"workspace settings ({folder.name})")
            problems += more
        self.show_problems(problems, key="editor")
        self.settings_ready.set()

    def show_problems(self, problems: Iterable[Message], key: str) -> None:
        """Show each configuration problem from source ``key`` with
        ``window/showMessage``, once until that source's problems change."""
        locale = self.editor_settings.locale or self.client_locale or i18n.default_locale()
        texts = tuple(dict.fromkeys(i18n.render(Message(
            N_("GradGuard: {problem}. Using the default."),
            {"problem": i18n.render(p, locale)}), locale) for p in problems))
        shown = {k for k in self._shown_problems if k.startswith(key + "\0")}
        self._shown_problems -= shown
        for text in texts:
            if f"{key}\0{text}" not in shown:
                self.window_show_message(t.ShowMessageParams(type=t.MessageType.Warning,
                                                             message=text))
            self._shown_problems.add(f"{key}\0{text}")

    def reload_projects(self) -> None:
        """Forget every cached ``pyproject.toml`` and analyse every open document again."""
        self.projects = config.SettingsResolver()
        self._shown_problems = {k for k in self._shown_problems if not k.startswith("project:")}
        self.generation += 1
        self.reanalyse_all()

    def reload_settings(self) -> None:
        """Re-read the editor settings (in a task), then analyse every open document
        again. From now until then no analysis starts and no older result counts as
        current (pull requests wait for the new one)."""
        self.generation += 1
        self.settings_ready.clear()
        asyncio.ensure_future(self._reload_settings())

    async def _reload_settings(self) -> None:
        await self.load_settings()
        self.reanalyse_all()
        if self.pull and self.capability("workspace.diagnostics.refresh_support", False):
            # ask for a refresh once the new results exist, so the pull that follows
            # gets them rather than an "unchanged" report
            tasks = [s.task for s in self.states() if s.task is not None]
            await asyncio.gather(*tasks, return_exceptions=True)
            self.workspace_diagnostic_refresh(None)

    # ----------------------------------------------------------------- analysis

    def schedule(self, uri: str, delay_ms: int) -> None:
        """(Re)start the analysis of document or notebook ``uri`` after ``delay_ms``;
        cancels the pending one."""
        if uri in self.notebooks:
            state = self.notebooks[uri]
            state.cancel()
            state.task = asyncio.ensure_future(notebooks.analyse(self, state, delay_ms))
            return
        state = self.documents.get(uri)
        if state is None:
            return
        state.cancel()
        state.task = asyncio.ensure_future(self._analyse(state, delay_ms))

    async def _analyse(self, state: DocumentState, delay_ms: int) -> None:
        await self.settings_ready.wait()
        if delay_ms:
            await asyncio.sleep(delay_ms / 1000)
        doc = self.open_document(state.uri)
        if doc is None or self.documents.get(state.uri) is not state:
            return
        version, text, generation = doc.version, doc.source, self.generation
        if not self.editor_settings_for(state.uri).enable:
            self.publish(state, Snapshot(version, text, (), generation=generation))
            self.refreshed(state)
            return
        progress = self.analysis_progress(state.uri)
        try:
            result, texts = await self.engine_result(state, text)
            if self.open_document(state.uri) is not doc or \
                    doc.version != version or generation != self.generation:
                return  # superseded: a newer analysis is (or will be) scheduled
            if result is not None and result.syntax_error is None:
                self.report_errors(state, result.errors)
                state.deps = dict(result.deps)
                self.known_deps.update(state.deps)
                state.good = Snapshot(version, text, result.findings, generation=generation,
                                      errors=result.errors, texts=texts)
                self.publish(state, state.good)
            else:
                self.publish(state, self.carried(state, version, text))
            self.refreshed(state)
        finally:  # published, superseded or cancelled (a newer edit)
            progress.done()

    async def engine_result(self, state: Any, text: str
                            ) -> tuple[FileResult | None, dict[str, str]]:
        """The engine's result for ``text``, the text of ``state`` (a document's or a
        notebook's state: its ``uri``, ``path`` and ``analyzer``), run in the worker
        thread, as :func:`_analyse_and_select` gives it; ``(None, {})`` after a bug in
        the engine (logged: it must not stop diagnostics for good)."""
        rules = self.config_for(state.uri)
        job = None
        if state.path is not None:
            job = _ImportJob(self.modules, self.open_texts, self.buffer_texts(),
                             self.module_edits, len(self.module_edits))
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self.executor, _analyse_and_select, state.analyzer, text, rules, state.path, job)
        except Exception:
            logger.exception("analysis of %s failed", state.uri)
            return None, {}

    def analysis_progress(self, uri: str) -> _Progress:
        """The delayed work-done progress of an analysis of ``uri`` starting now."""
        # TRANSLATORS: the title of the progress shown (VS Code: in the status bar) while
        # a file is analysed for longer than half a second; {file} is its file name
        return self.delayed_progress(Message(N_("GradGuard: analysing {file}"),
                                             {"file": _display_name(uri)}), uri)

    def delayed_progress(self, title: Message, uri: str) -> _Progress:
        """The work-done progress of a piece of work starting now, titled ``title`` (in
        the locale of ``uri``): shown only if the client supports it
        (``window.workDoneProgress``) and the work lasts :attr:`progress_delay` seconds;
        call its ``done()`` when the work ends."""
        supported = bool(self.capability("window.work_done_progress", False))
        return _Progress(self, f"gradguard/{next(self._progress_tokens)}",
                         i18n.render(title, self.locale_for(uri)) if supported else None,
                         self.progress_delay)

    def buffer_texts(self) -> dict[str, str]:
        """The text of every open file, by absolute path (what the engine reads for the
        user's modules that are open, see :class:`~gradguard.lsp.documents.OpenTexts`)."""
        texts = {}
        for state in self.documents.values():
            doc = self.open_document(state.uri) if state.path is not None else None
            if doc is not None:
                texts[state.path] = doc.source
        return texts

    def dependants(self, path: str, sha: str | None = None) -> list[DocumentState]:
        """The open documents and synced notebooks whose last analysis read the module at
        ``path`` (with ``sha``: only those that read another text of it than the one
        ``sha`` hashes)."""
        return [s for s in self.states()
                if path in s.deps and (sha is None or s.deps[path] != sha)]

    def module_changed(self, path: str | None, text: str | None = None,
                       on_type: bool = False, saved: bool = False) -> None:
        """The module at ``path`` changed (its text is now ``text``; None: unknown, as
        after a close or a change on disk; ``saved``: only written to disk, its text
        is the one the last change gave): analyse again each open document whose last
        analysis read another text of it (after its debounce if ``on_type``, and then
        only documents analysed on type). Nothing for a file no analysis read."""
        if path is None or path not in self.known_deps:
            return
        sha = digest(text) if text is not None else None
        found = self.dependants(path, sha)
        if not saved:
            # a module loaded before may hold the old text, imported in turn: the
            # workspace forgets what it loaded before the next analysis (in the worker)
            self.module_edits.append(path)
        for state in found:
            settings = self.editor_settings_for(state.uri)
            if on_type and settings.run != "onType":
                continue
            state.stale = state.refresh = True
            self.schedule(state.uri, settings.debounce_ms if on_type else 0)

    def refreshed(self, state: DocumentState) -> None:
        """After ``state`` was published: it is current again; if a changed module made
        it stale, ask a pull client to pull again (``workspace/diagnostic/refresh``), once
        no other such document is still being analysed."""
        state.stale = False
        if not state.refresh:
            return
        state.refresh = False
        if any(s.refresh and s.task is not None and not s.task.done()
               for s in self.states()):
            return  # the last of them asks
        if self.pull and self.capability("workspace.diagnostics.refresh_support", False):
            self.workspace_diagnostic_refresh(None)

    def report_errors(self, state: DocumentState, errors: Sequence[EngineError]) -> None:
        """Log the internal errors of the engine in the latest analysis of ``state`` (a
        bug in one rule or one function: ``"GG101 in train (line 4): TypeError: ..."``;
        the findings of the others are still published, and each error is published as
        an Information diagnostic at the function's header, see :meth:`publish`): each
        with ``logger.error`` and a ``window/logMessage`` of type Error, once until an
        analysis comes without it (the same error moved to other lines is not new)."""
        keys = {}
        for error in errors:
            key = (error.kind, error.where, error.root, error.message)
            if key not in state.errors and key not in keys:
                message = f"internal error in the analysis of {state.uri}: {error}"
                logger.error("%s", message)
                self.window_log_message(t.LogMessageParams(type=t.MessageType.Error,
                                                           message=message))
            keys[key] = None
        state.errors = frozenset(keys)

    def carried(self, state: DocumentState, version: int, text: str) -> Snapshot:
        """The last good findings of ``state`` moved onto ``text`` (see
        :func:`~gradguard.lsp.documents.line_mapper`); nothing if there are none."""
        if state.good is None:
            return Snapshot(version, text, (), analysed=False, generation=self.generation)
        mapped = line_mapper(state.good.text, text)
        errors = (moved_error(e, mapped) for e in state.good.errors)
        return Snapshot(version, text, remap_findings(state.good.findings, mapped),
                        analysed=False, generation=self.generation,
                        errors=tuple(e for e in errors if e is not None),
                        texts=state.good.texts)

    def publish(self, state: DocumentState, snapshot: Snapshot) -> None:
        """Convert ``snapshot`` to diagnostics, record it, and push it to push clients.

        A finding published before, with the same text on the lines it spans (in this
        file and in the imported ones its related locations and fix edits are in) and
        the same rules, locale and position encoding, reuses its diagnostics (only the
        version in ``data`` changes): after a keystroke most findings are the same.
        Diagnostics equal to those published for the same version are not sent again."""
        rules = self.config_for(state.uri)
        locale = self.locale_for(state.uri)
        lines = convert.split_lines(snapshot.text)
        foreign = ForeignLines(snapshot.texts)
        place = self.place_in(state.uri, lines, foreign)
        known, made = state.rendered[3], {}
        if state.rendered[:3] != (rules, locale, self.encoding):
            known = {}
        diagnostics = []
        for f in snapshot.findings:
            lo, hi = finding_lines(f)
            text = tuple(lines[lo - 1:hi]) + foreign.key(f)
            # the same finding object (an unchanged function's), else an equal one
            # (findings hold dicts: no hash, so their repr is the key)
            same = known.get(id(f))
            key = id(f) if same is not None and same[0] is f else repr(f)
            hit = known.get(key)
            ds = hit[2] if hit is not None and hit[1] == text else tuple(
                d for _, d in self.diagnostics(f, place, lines, rules, locale))
            made[id(f)] = (f, text, ds)  # (the entry keeps f alive: its id stays its own)
            if key != id(f):
                made[key] = made[id(f)]
            diagnostics += [attrs.evolve(d, data={**d.data, "version": snapshot.version})
                            for d in ds]
        diagnostics += [self.error_diagnostic(lines, e, locale) for e in snapshot.errors]
        state.rendered = (rules, locale, self.encoding, made)
        diagnostics = tuple(diagnostics)
        old = state.published
        if old is not None and (old.version, old.generation, old.diagnostics) == (
                snapshot.version, snapshot.generation, diagnostics):
            # the same diagnostics for the same text (a module it imports changed, not
            # what this file sees of it): nothing new for the client, nor a new result id
            state.mark_published(dataclasses.replace(snapshot, diagnostics=diagnostics,
                                                     result_id=old.result_id))
            return
        snapshot = dataclasses.replace(snapshot, diagnostics=diagnostics,
                                       result_id=f"{snapshot.version}.{next(self._result_ids)}")
        state.mark_published(snapshot)
        # VS Code's language client pulls only for documents in text editors: notebook
        # cells get their diagnostics pushed even from a pull server
        if not self.pull or state.uri.startswith("vscode-notebook-cell:"):
            self.text_document_publish_diagnostics(t.PublishDiagnosticsParams(
                uri=state.uri, version=snapshot.version, diagnostics=list(diagnostics)))

    def place_in(self, uri: str, lines: Sequence[str], foreign: ForeignLines | None = None
                 ) -> Placer:
        """Where spans of an analysis of document ``uri`` (its text split into ``lines``)
        are: in ``uri``, or (``Span.path``) in an imported module, converted against that
        file's lines (``foreign``)."""
        enc = self.encoding
        foreign = foreign or ForeignLines({})

        def place(span: Span) -> tuple[str, t.Range]:
            if span.path is None:
                return uri, convert.to_lsp_range(lines, span, enc)
            return from_fs_path(span.path), convert.to_lsp_range(foreign.lines(span.path),
                                                                 span, enc)
        return place

    def diagnostics(self, finding: Finding, place: Placer, lines: Sequence[str],
                    rules: config.Settings, locale: str,
                    local: Callable[[Message], Message] = lambda m: m
                    ) -> tuple[tuple[str, t.Diagnostic], ...]:
        """One finding as LSP diagnostics, each with the URI of the document it is
        published for: the finding's own, where the program fails, then a Hint at each
        site of its preferred fix on other lines of the analysed text (split into
        ``lines``; :func:`~gradguard.analysis.model.fix_sites`: "fix here: ..." with the
        fix's title), same code and source; each points to the other with its related
        information. ``place`` says where a span of the analysed text is (URI and range:
        see :meth:`place_in`; a notebook's program spans are in its cells), ``local``
        what a message says there (a notebook's line numbers counted in cells). ``data``
        carries the document version (0 here: :meth:`publish` fills it in) and every fix
        with its rendered title and edits in client units, so code actions need no
        re-analysis, from either: ``{"version": 3, "fixes": [{"title", "preferred",
        "edits": [{"range": [l0, c0, l1, c1], "newText"}]}]}`` (a hint's also has
        ``"hint": true``); an edit in another document than the diagnostic's (an
        imported module, another cell) also has its ``"uri"``."""
        rule = rule_for(finding.code)
        uri, main_range = place(finding.span)

        def render(message: Message) -> str:
            return i18n.render(local(message), locale)

        def edit(e) -> dict:
            at, rng = place(e.span)
            return {"range": convert.range_to_json(rng), "newText": e.new_text,
                    **({"uri": at} if at != uri else {})}

        fixes = [{
            "title": render(fix.title),
            "preferred": fix.preferred,
            "edits": [edit(e) for e in fix.edits],
        } for fix in finding.fixes]
        main = t.Diagnostic(
            range=main_range,
            message=render(finding.message),
            severity=_SEVERITY[config.severity_for(rules, finding.code)] if rule
            else t.DiagnosticSeverity.Warning,
            code=finding.code,
            code_description=t.CodeDescription(href=rule.url) if rule else None,
            source=SOURCE,
            related_information=[t.DiagnosticRelatedInformation(
                location=t.Location(*place(r.span)), message=render(r.message))
                for r in finding.related] or None,
            data={"version": 0, "fixes": fixes},
        )
        sites = [place(span) for span in fix_sites(finding, lines)]
        if not sites:
            return ((uri, main),)
        here = i18n.render(Message(N_("fix here: {fix}"),
                                   {"fix": local(finding.preferred_fix.title)}), locale)
        hints = tuple((at, attrs.evolve(
            main, range=rng, message=here, severity=t.DiagnosticSeverity.Hint,
            related_information=[t.DiagnosticRelatedInformation(
                location=t.Location(uri, main.range), message=main.message)],
            data={**main.data, "hint": True})) for at, rng in sites)
        main.related_information = (main.related_information or []) + [
            t.DiagnosticRelatedInformation(location=t.Location(at, h.range), message=here)
            for at, h in hints]
        return ((uri, main),) + hints

    def error_diagnostic(self, lines: Sequence[str], error: EngineError, locale: str
                         ) -> t.Diagnostic:
        """An internal error of the engine as an Information diagnostic on the header of
        the function it could not analyse (line 1 for the module body): no code, no
        fixes, a message saying which findings are missing."""
        return t.Diagnostic(range=convert.to_lsp_range(lines, error.span, self.encoding),
                            message=i18n.render(engine_error_message(error), locale),
                            severity=t.DiagnosticSeverity.Information, source=SOURCE)

    def current(self, uri: str) -> Snapshot | None:
        """The published snapshot of ``uri`` if it belongs to the document's current
        version and configuration, else ``None`` (its edits would land on the wrong
        text, or it is about to be replaced). A synced notebook's cell: see
        :func:`~gradguard.lsp.notebooks.cell_snapshot`."""
        if notebooks.owner(self, uri) is not None:
            return notebooks.cell_snapshot(self, uri)
        state, doc = self.documents.get(uri), self.open_document(uri)
        if state is None or doc is None or state.published is None:
            return None
        snapshot = state.published
        return snapshot if (snapshot.version, snapshot.generation) == (
            doc.version, self.generation) else None

    def files_created_or_deleted(self) -> None:
        """A ``.py`` file appeared or went: an import may now name another file (or
        none). Start from a new workspace (jedi's look-ups are kept for a workspace's
        life) and analyse every open file again."""
        self.modules = Workspace(text_of=self.open_texts.text_of)
        for state in self.states():
            if state.path is not None:
                state.stale = state.refresh = True
                self.schedule(state.uri, 0)

    def reanalyse_all(self) -> None:
        """Analyse every open document and synced notebook again (settings changed)."""
        for state in self.states():
            self.schedule(state.uri, 0)

    # ----------------------------------------------------------------- edits

    def workspace_edit(self, uri: str, version: int, edits: list[t.TextEdit],
                       others: dict[str, list[t.TextEdit]] | None = None) -> t.WorkspaceEdit:
        """``edits`` to document ``uri`` (and ``others``: edits to other documents, by
        URI), versioned when the client supports ``documentChanges`` (it then refuses them
        for a changed document; another document is versioned by its open buffer, else
        unversioned: the file on disk)."""
        others = {u: e for u, e in (others or {}).items() if u != uri and e}
        if self.capability("workspace.workspace_edit.document_changes", False):
            changes = [t.TextDocumentEdit(
                text_document=t.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                edits=edits)] if edits else []
            for other, other_edits in others.items():
                doc = self.open_document(other)
                changes.append(t.TextDocumentEdit(
                    text_document=t.OptionalVersionedTextDocumentIdentifier(
                        uri=other, version=doc.version if doc is not None else None),
                    edits=other_edits))
            return t.WorkspaceEdit(document_changes=changes)
        return t.WorkspaceEdit(changes={**({uri: edits} if edits else {}), **others})

    def fix_all_edits(self, snapshot: Snapshot) -> list[t.TextEdit]:
        """The edits of every preferred fix of ``snapshot`` whose edits are all in the
        file (as ``--fix``) and that can be applied together
        (:func:`gradguard.fixes.compatible_fixes`; fix-all again for the rest)."""
        lines = convert.split_lines(snapshot.text)
        chosen = compatible_fixes([f.preferred_fix for f in snapshot.findings
                                   if f.preferred_fix and f.preferred_fix.in_file])
        return [convert.to_text_edit(lines, edit, self.encoding)
                for fix in chosen for edit in fix.edits]

    def unchanged_since(self, snapshot: Snapshot, uri: str) -> bool:
        """Whether the file ``uri`` (another one than ``snapshot``'s) still has the text
        the analysis of ``snapshot`` read (its open buffer's, else the disk's; another
        cell of a notebook: its open text): edits computed against that text land where
        they should. False for a document the analysis did not read."""
        path = path_of(uri)
        read = snapshot.texts.get(path if path is not None else uri)
        if read is None:
            return False
        doc = self.open_document(uri)
        if path is None:
            return doc is not None and doc.source == read
        return (doc.source if doc is not None else read_text(path)) == read

    def suppression_edits(self, snapshot: Snapshot, code: str, line: int) -> list[t.TextEdit]:
        """The edit that adds ``code`` to the ``# noqa`` of 0-based ``line``, or none
        when a comment cannot go there (:func:`gradguard.suppression.noqa_edit`)."""
        edit = noqa_edit(snapshot.text, line + 1, code)
        if edit is None:
            return []
        return [convert.to_text_edit(convert.split_lines(snapshot.text), edit, self.encoding)]


class _Progress:
    """One piece of work's work-done progress (``$/progress``, through pygls'
    :attr:`~pygls.lsp.server.LanguageServer.work_done_progress`): after ``delay``
    seconds, ``window/workDoneProgress/create`` with ``token``, then ``begin`` with
    ``title`` once the client accepted it; ``end`` at :meth:`done`. Done before the
    delay: nothing is sent. Done while the client has not answered the create yet:
    ``begin`` and ``end`` follow its answer. ``title`` None: nothing is ever sent (the
    client does not support it)."""

    def __init__(self, ls: GradGuardServer, token: str, title: str | None, delay: float):
        self._finished = asyncio.Event()
        self._asked = False
        self._task = None if title is None else asyncio.ensure_future(
            self._show(ls, token, title, delay))

    async def _show(self, ls: GradGuardServer, token: str, title: str, delay: float) -> None:
        await asyncio.sleep(delay)
        self._asked = True
        try:
            await asyncio.wait_for(ls.work_done_progress.create_async(token), _CLIENT_TIMEOUT)
        except Exception as error:  # the client failed us: no progress then
            logger.warning("window/workDoneProgress/create failed: %s", error)
            return
        ls.work_done_progress.begin(token, t.WorkDoneProgressBegin(title=title))
        try:
            await self._finished.wait()
        finally:
            ls.work_done_progress.end(token, t.WorkDoneProgressEnd())
            ls.work_done_progress.tokens.pop(token, None)  # (pygls keeps every token)

    def done(self) -> None:
        """The work ended: end its progress (or never show it)."""
        if self._task is not None and not self._asked:
            self._task.cancel()
        self._finished.set()


def _display_name(uri: str) -> str:
    """The name a document is called by in messages: its file name (a notebook cell's:
    the notebook's; an untitled buffer's: ``Untitled-1``)."""
    return posixpath.basename(unquote(urlparse(uri).path)) or uri


@dataclasses.dataclass(frozen=True)
class _ImportJob:
    """What an analysis of a file needs to follow its imports, handed to the worker
    thread: the workspace, its texts, the open buffers' texts when the analysis was
    scheduled to run, and the module edits (the path of each, appended to on the event
    loop) and how many there were then."""

    modules: Workspace
    texts: OpenTexts
    buffers: Mapping[str, str]
    module_edits: Sequence[str]
    edits_then: int


def _analyse_and_select(analyzer: Analyzer, text: str, rules: config.Settings,
                        path: str | None, job: _ImportJob | None = None
                        ) -> tuple[FileResult, dict[str, str]]:
    """Run in the worker thread: the findings of ``text`` that ``rules`` enable for
    ``path`` and no ``# noqa`` suppresses, with the engine's internal errors (those of
    rules ``rules`` disable left out), or the syntax problem; and the text of each
    module of the user's it read (``job``: follow the imports, see :class:`_ImportJob`)."""
    texts: dict[str, str] = {}
    if job is None:
        result = analyzer(text)
    else:
        if job.texts.forgotten < job.edits_then:
            # modules changed: those loaded before that hold or import their old texts
            job.modules.forget(job.module_edits[job.texts.forgotten:job.edits_then])
            job.texts.forgotten = job.edits_then
        job.texts.current = job.buffers
        try:
            result = analyzer(text, imports=job.modules.importer(path))
            for dep, _ in result.deps:
                if (dep_text := job.texts.text_of(dep)) is not None:
                    texts[dep] = dep_text
        finally:
            job.texts.current = {}
    if result.syntax_error is not None:
        return result, texts
    enabled = [f for f in result.findings if config.rule_enabled(rules, f.code, path)]
    errors = tuple(e for e in result.errors
                   if e.kind != "rule" or config.rule_enabled(rules, e.where, path))
    return FileResult(findings=tuple(unsuppressed(enabled, text)), errors=errors,
                      deps=result.deps), texts


def _fix_edits(fix: Any) -> list[tuple[str | None, t.TextEdit]] | None:
    """The edits of ``fix``, a fix as :meth:`GradGuardServer.diagnostic` puts it in
    ``data``, each with the URI of the document it is in (None: the diagnostic's; another
    is edited only while it has the text the analysis read, see
    :meth:`GradGuardServer.unchanged_since`); ``None`` when it is not one (the client
    sent back something else)."""
    edits = fix.get("edits") if isinstance(fix, dict) else None
    if not isinstance(edits, list) or not all(
            isinstance(e, dict) and isinstance(e.get("newText"), str) and
            (e.get("uri") is None or isinstance(e["uri"], str)) for e in edits):
        return None
    try:
        return [(e.get("uri"), t.TextEdit(range=convert.range_from_json(e.get("range")),
                                          new_text=e["newText"])) for e in edits]
    except ValueError:
        return None


# --------------------------------------------------------------------- handlers


def _initialize(ls: GradGuardServer, params: t.InitializeParams) -> None:
    ls.init_options = params.initialization_options
    ls.client_locale = params.locale
    ls.pull = ls.capability("text_document.diagnostic") is not None


async def _initialized(ls: GradGuardServer, params: t.InitializedParams) -> None:
    await ls.load_settings()
    if ls.capability("workspace.did_change_watched_files.dynamic_registration", False):
        try:
            await asyncio.wait_for(ls.client_register_capability_async(t.RegistrationParams(
                registrations=[t.Registration(
                    id="gradguard-watched-files",
                    method=t.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=t.DidChangeWatchedFilesRegistrationOptions(watchers=[
                        t.FileSystemWatcher(glob_pattern="**/pyproject.toml"),
                        t.FileSystemWatcher(glob_pattern="**/*.py")]))])),
                _CLIENT_TIMEOUT)
        except Exception as error:
            logger.warning("could not watch pyproject.toml and *.py: %s", error)


def _did_open(ls: GradGuardServer, params: t.DidOpenTextDocumentParams) -> None:
    uri = params.text_document.uri
    if notebooks.owner(ls, uri) is not None:
        return  # a synced notebook's cell: analysed with its notebook
    old = ls.documents.pop(uri, None)
    if old is not None:
        old.cancel()
    state = ls.documents[uri] = DocumentState(uri, ls.analyzer_factory(), path_of(uri))
    ls.schedule(uri, 0)
    ls.module_changed(state.path, params.text_document.text)  # its buffer now wins


def _did_change(ls: GradGuardServer, params: t.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    state = ls.documents.get(uri)
    if state is None:
        return
    settings = ls.editor_settings_for(uri)
    doc = ls.workspace.get_text_document(uri)
    if settings.run == "onType" or not ls.settings_ready.is_set():
        ls.schedule(uri, settings.debounce_ms)
    else:
        ls.publish(state, ls.carried(state, doc.version, doc.source))
    if state.path in ls.known_deps:
        ls.module_changed(state.path, doc.source, on_type=True)


def _did_save(ls: GradGuardServer, params: t.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    snapshot = ls.current(uri)
    state = ls.documents.get(uri)
    if state is not None and not (snapshot and snapshot.analysed):
        ls.schedule(uri, 0)
    doc = ls.open_document(uri)
    if state is not None and doc is not None:
        ls.module_changed(state.path, doc.source, saved=True)  # importers run on save


def _did_close(ls: GradGuardServer, params: t.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    if notebooks.owner(ls, uri) is not None:
        return  # a synced notebook's cell: its diagnostics are the notebook's
    state = ls.documents.pop(uri, None)
    if state is not None:
        state.cancel()
        state.mark_published(Snapshot(-1, "", ()))
        ls.module_changed(state.path)  # the disk's text wins again
    if not ls.pull:
        ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


async def _pull_diagnostics(ls: GradGuardServer, params: t.DocumentDiagnosticParams
                            ) -> t.DocumentDiagnosticReport:
    uri = params.text_document.uri
    while True:
        state, doc = ls.documents.get(uri), ls.open_document(uri)
        if state is None or doc is None:
            return t.RelatedFullDocumentDiagnosticReport(items=[])
        snapshot = ls.current(uri)
        idle = state.task is None or state.task.done()
        if snapshot is not None and ((snapshot.analysed and not state.stale) or idle):
            break  # a carried-over snapshot counts unless an analysis is on its way (save),
            # an analysed one unless a module it read changed since
        if idle:
            ls.schedule(uri, 0)
        await state.changed.wait()
    if params.previous_result_id == snapshot.result_id:
        return t.RelatedUnchangedDocumentDiagnosticReport(result_id=snapshot.result_id)
    return t.RelatedFullDocumentDiagnosticReport(items=list(snapshot.diagnostics),
                                                 result_id=snapshot.result_id)


def _hover(ls: GradGuardServer, params: t.HoverParams) -> t.Hover | None:
    uri = params.text_document.uri
    if notebooks.owner(ls, uri) is not None:
        markdown = notebooks.hover(ls, uri, params.position)
    else:
        markdown = _document_hover(ls, uri, params.position)
    if markdown is None:
        return None
    formats = ls.capability("text_document.hover.content_format") or [t.MarkupKind.Markdown]
    kind = t.MarkupKind.Markdown if t.MarkupKind.Markdown in formats else t.MarkupKind.PlainText
    return t.Hover(contents=t.MarkupContent(kind=kind, value=markdown))


def _document_hover(ls: GradGuardServer, uri: str, position: t.Position) -> str | None:
    doc = ls.open_document(uri)
    state = ls.documents.get(uri)
    if doc is None or state is None or not ls.editor_settings_for(uri).enable:
        return None
    text = doc.source
    findings: Sequence[Finding] = ()
    if state.published is not None:
        findings = remap_findings(state.published.findings,
                                  line_mapper(state.published.text, text))
    pos = convert.from_lsp_position(convert.split_lines(text), position, ls.encoding)
    return explain.hover_markdown(text, pos, findings, ls.locale_for(uri))


def _kind_wanted(kind: str, only: Sequence[str] | None) -> bool:
    return not only or any(kind == o or kind.startswith(o + ".") for o in only)


def _code_actions(ls: GradGuardServer, params: t.CodeActionParams) -> list[t.CodeAction]:
    uri = params.text_document.uri
    snapshot = ls.current(uri)
    if snapshot is None:
        return []
    only = params.context.only
    _ = i18n.translator(ls.locale_for(uri)).gettext
    base = {"uri": uri, "version": snapshot.version}
    actions: list[t.CodeAction] = []
    suppress: list[t.CodeAction] = []
    for diagnostic in snapshot.diagnostics:
        if diagnostic.code is None or not convert.ranges_overlap(diagnostic.range, params.range) \
                or not _kind_wanted(t.CodeActionKind.QuickFix, only):
            continue  # (an internal error has no code, and nothing to fix or suppress)
        for fix in sorted(diagnostic.data["fixes"], key=lambda f: not f["preferred"]):
            if all(a.data["fix"] != fix for a in actions):  # (a finding's and its hint's)
                actions.append(t.CodeAction(
                    title=fix["title"], kind=t.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic], is_preferred=fix["preferred"] or None,
                    data={**base, "fix": fix}))
        if diagnostic.data.get("hint"):
            continue  # a "# noqa" goes on the finding's line, not on the fix site's
        key = {"code": diagnostic.code, "line": diagnostic.range.start.line}
        if all(a.data["suppress"] != key for a in suppress):
            suppress.append(t.CodeAction(
                title=_(N_("Suppress {code} on this line")).format(code=diagnostic.code),
                kind=t.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                data={**base, "suppress": key}))
    actions += suppress
    if _kind_wanted(FIX_ALL_KIND, only) and ls.fix_all_edits(snapshot):
        actions.append(t.CodeAction(title=_(N_("Fix all GradGuard problems")),
                                    kind=FIX_ALL_KIND, data={**base, "fixAll": True}))
    if "edit" not in (ls.capability("text_document.code_action.resolve_support.properties")
                      or []):
        actions = [a for a in (_resolve(ls, action) for action in actions) if a.edit]
    return actions


def _suppression(key: Any) -> tuple[str, int] | None:
    """``(code, line)`` of a ``suppress`` key as :func:`_code_actions` writes it (a rule
    code and a 0-based line), else ``None``."""
    if not isinstance(key, dict):
        return None
    code, line = key.get("code"), key.get("line")
    rule = rule_for(code) if isinstance(code, str) else None
    if rule is None or rule.code != code or type(line) is not int or line < 0:
        return None
    return code, line


def _resolve(ls: GradGuardServer, action: t.CodeAction) -> t.CodeAction:
    """Fill in ``action.edit`` from ``action.data``; left without an edit when the
    document changed since the action was offered (its edits would misplace text), when
    its fix is not one the published diagnostics offer (an analysis since, after another
    document it edits changed, computed other edits), when
    there is nothing to do (no ``# noqa`` can go on a line inside a string), or when
    ``data`` is not what :func:`_code_actions` wrote (forged or corrupted by the client:
    answered quietly, as a stale action is)."""
    data = action.data if isinstance(action.data, dict) else {}
    uri, version = data.get("uri"), data.get("version")
    snapshot = ls.current(uri) if isinstance(uri, str) else None
    if snapshot is None or snapshot.version != version:
        return action
    suppress = _suppression(data.get("suppress"))
    others: dict[str, list[t.TextEdit]] = {}
    if "fix" in data:
        edits = None
        fix_edits = _fix_edits(data["fix"])
        # (offered by the published analysis: one made before another document it edits
        # changed, a notebook's other cell, has edits for that document's old text)
        offered = any(data["fix"] in d.data["fixes"] for d in snapshot.diagnostics if d.data)
        if fix_edits is not None and offered and all(
                ls.unchanged_since(snapshot, other) for other, _ in fix_edits if other is not None):
            edits = [e for other, e in fix_edits if other is None]
            for other, e in fix_edits:
                if other is not None:
                    others.setdefault(other, []).append(e)
    elif suppress is not None:
        edits = ls.suppression_edits(snapshot, *suppress)
    elif data.get("fixAll") is True:
        edits = ls.fix_all_edits(snapshot)
    else:
        edits = None
    if edits or others:
        action.edit = ls.workspace_edit(uri, version, edits or [], others)
    return action


def _explain_command(ls: GradGuardServer, *args: Any) -> str | None:
    code = args[0] if args and isinstance(args[0], str) else ""
    return explain.explain_rule(code, ls.locale_for(""))


async def _fix_all_command(ls: GradGuardServer, *args: Any) -> bool:
    uri = args[0] if args and isinstance(args[0], str) else ""
    snapshot = ls.current(uri)
    if snapshot is None:
        return False
    edits = ls.fix_all_edits(snapshot)
    if not edits:
        return False
    result = await ls.workspace_apply_edit_async(t.ApplyWorkspaceEditParams(
        edit=ls.workspace_edit(uri, snapshot.version, edits),
        label=i18n.translator(ls.locale_for(uri)).gettext(N_("Fix all GradGuard problems"))))
    return bool(result and result.applied)


def _did_change_configuration(ls: GradGuardServer, params: t.DidChangeConfigurationParams
                              ) -> None:
    if not ls.capability("workspace.configuration", False) and isinstance(params.settings, dict):
        ls.init_options = params.settings.get(SOURCE, params.settings)
    ls.reload_settings()


def _did_change_watched_files(ls: GradGuardServer, params: t.DidChangeWatchedFilesParams) -> None:
    if any(change.uri.endswith("/pyproject.toml") for change in params.changes):
        ls.reload_projects()
    modules = [c for c in params.changes if c.uri.endswith(".py")]
    if any(c.type != t.FileChangeType.Changed for c in modules):
        ls.files_created_or_deleted()
        return
    for change in modules:
        if ls.open_document(change.uri) is None:  # an open buffer wins over the disk
            ls.module_changed(path_of(change.uri))


def build_server(analyzer_factory: Callable[[], Analyzer] | None = None) -> GradGuardServer:
    """A server with every feature registered; ``analyzer_factory`` as in
    :class:`GradGuardServer`."""
    ls = GradGuardServer(analyzer_factory)
    ls.feature(t.INITIALIZE)(_initialize)
    ls.feature(t.INITIALIZED)(_initialized)
    ls.feature(t.TEXT_DOCUMENT_DID_OPEN)(_did_open)
    ls.feature(t.TEXT_DOCUMENT_DID_CHANGE)(_did_change)
    ls.feature(t.TEXT_DOCUMENT_DID_SAVE)(_did_save)
    ls.feature(t.TEXT_DOCUMENT_DID_CLOSE)(_did_close)
    ls.feature(t.NOTEBOOK_DOCUMENT_DID_OPEN)(notebooks.did_open)
    ls.feature(t.NOTEBOOK_DOCUMENT_DID_CHANGE)(notebooks.did_change)
    ls.feature(t.NOTEBOOK_DOCUMENT_DID_SAVE)(notebooks.did_save)
    ls.feature(t.NOTEBOOK_DOCUMENT_DID_CLOSE)(notebooks.did_close)
    ls.feature(t.TEXT_DOCUMENT_DIAGNOSTIC, t.DiagnosticOptions(
        identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=False))(
        _pull_diagnostics)
    ls.feature(t.TEXT_DOCUMENT_HOVER)(_hover)
    ls.feature(t.TEXT_DOCUMENT_CODE_ACTION, t.CodeActionOptions(
        code_action_kinds=[t.CodeActionKind.QuickFix, FIX_ALL_KIND], resolve_provider=True))(
        _code_actions)
    ls.feature(t.CODE_ACTION_RESOLVE)(_resolve)
    ls.feature(t.WORKSPACE_DID_CHANGE_CONFIGURATION)(_did_change_configuration)
    ls.feature(t.WORKSPACE_DID_CHANGE_WATCHED_FILES)(_did_change_watched_files)
    ls.command(EXPLAIN_COMMAND)(_explain_command)
    ls.command(FIX_ALL_COMMAND)(_fix_all_command)
    return ls


def main(args: argparse.Namespace) -> int:
    """Run the server until the client exits (``gradguard lsp``). ``args`` has ``tcp``,
    ``ws`` (booleans), ``host`` and ``port``: stdio unless ``tcp`` or ``ws``, which bind
    ``host:port`` (the CLI defaults to 127.0.0.1:2087). Returns 0."""
    logging.basicConfig(level=logging.WARNING)
    ls = build_server()
    if args.tcp:
        ls.start_tcp(args.host, args.port)
    elif args.ws:
        ls.start_ws(args.host, args.port)
    else:
        ls.start_io()
    return 0
