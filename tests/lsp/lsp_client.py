"""The test client for the GradGuard language server and its helpers (imported by the
tests and by ``conftest.py``; a module name of its own, so that no other ``conftest``
can shadow it)."""

from __future__ import annotations

import asyncio
import os
import pathlib
import sys
from typing import Any, Callable

from lsprotocol import types as t
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

HERE = pathlib.Path(__file__).resolve().parent
FAKE_SERVER = [sys.executable, str(HERE / "fake_server.py")]
BROKEN_RULE_SERVER = [sys.executable, str(HERE / "broken_rule_server.py")]
BROKEN_ROOT_SERVER = [sys.executable, str(HERE / "broken_root_server.py")]
REAL_SERVER = [sys.executable, "-m", "gradguard.lsp"]
PROFILES = ["visual-studio-code", "neovim@v0.10.0", "emacs"]
TIMEOUT = 120.0  # seconds; generous on purpose (a slow machine must not fail a test)


class Client(LanguageClient):
    """pytest-lsp's client, plus a record of everything the server sent that tests
    wait for: every publishDiagnostics, workspace/applyEdit, registrations,
    workspace/diagnostic/refresh, work-done progress (pytest-lsp's ``progress_reports``,
    and ``events``: publishes and progress messages in the order they came)."""

    def __init__(self, **kwargs: Any):
        super().__init__(converter_factory=default_converter, **kwargs)
        self.published: list[t.PublishDiagnosticsParams] = []
        self.applied: list[t.ApplyWorkspaceEditParams] = []
        self.registrations: list[t.Registration] = []
        self.registered = asyncio.Event()
        self.refreshed = asyncio.Event()  # set at each workspace/diagnostic/refresh
        self._waiters: list[tuple[Callable[[t.PublishDiagnosticsParams], bool], asyncio.Future]] = []
        # ("publish", uri, version), ("create", token), ("begin" | "report" | "end", token)
        self.events: list[tuple] = []
        self._conditions: list[tuple[Callable[[], bool], asyncio.Future]] = []

    def event(self, *event: Any) -> None:
        """Record ``event`` (see :attr:`events`) and wake the :meth:`until` it satisfies."""
        self.events.append(event)
        for condition in list(self._conditions):
            if not condition[1].done() and condition[0]():
                condition[1].set_result(None)
                self._conditions.remove(condition)

    async def until(self, condition: Callable[[], bool]) -> None:
        """Wait until ``condition()`` holds (checked after each event)."""
        if condition():
            return
        future = asyncio.get_running_loop().create_future()
        self._conditions.append((condition, future))
        await asyncio.wait_for(future, TIMEOUT)

    @property
    def pulls(self) -> bool:
        """Whether the server serves this client pull diagnostics."""
        return self.capabilities is not None and self.capabilities.text_document is not None \
            and self.capabilities.text_document.diagnostic is not None

    def on_publish(self, params: t.PublishDiagnosticsParams) -> None:
        self.published.append(params)
        self.diagnostics[params.uri] = params.diagnostics
        self.event("publish", params.uri, params.version)
        for waiter in list(self._waiters):
            if waiter[0](params) and not waiter[1].done():
                waiter[1].set_result(params)
                self._waiters.remove(waiter)

    def next_publish(self, uri: str, version: int | None = None) -> asyncio.Future:
        """A future for the next publishDiagnostics for ``uri`` (and ``version``) from
        now on: create it *before* the action that triggers the publish."""
        fut = asyncio.get_running_loop().create_future()
        self._waiters.append((lambda p: p.uri == uri and version in (None, p.version), fut))
        return fut

    async def diagnostics_of(self, uri: str, version: int, previous: str | None = None
                             ) -> list[t.Diagnostic]:
        """The diagnostics of ``uri`` at ``version``: pulled, or awaited from the
        publishes (including ones already received)."""
        if self.pulls:
            report = await self.pull(uri, previous)
            return list(report.items)
        for params in reversed(self.published):
            if params.uri == uri and params.version == version:
                return list(params.diagnostics)
        params = await asyncio.wait_for(self.next_publish(uri, version), TIMEOUT)
        return list(params.diagnostics)

    async def pull(self, uri: str, previous: str | None = None):
        return await asyncio.wait_for(self.text_document_diagnostic_async(
            t.DocumentDiagnosticParams(text_document=t.TextDocumentIdentifier(uri=uri),
                                       previous_result_id=previous)), TIMEOUT)

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(
            uri=uri, language_id="python", version=version, text=text)))

    def change(self, uri: str, version: int, *changes: t.TextDocumentContentChangeEvent) -> None:
        self.text_document_did_change(t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=list(changes)))

    def open_notebook(self, uri: str, cells: list[tuple[str, str, str]], version: int = 1
                      ) -> list[str]:
        """Open a Jupyter notebook ``uri`` as VS Code syncs it: ``cells`` are (cell URI,
        language, text), a ``markdown`` cell is a markup cell; every cell at version 1."""
        self.notebook_document_did_open(t.DidOpenNotebookDocumentParams(
            notebook_document=t.NotebookDocument(
                uri=uri, notebook_type="jupyter-notebook", version=version, cells=[
                    t.NotebookCell(kind=t.NotebookCellKind.Markup if language == "markdown"
                                   else t.NotebookCellKind.Code, document=cell)
                    for cell, language, _ in cells]),
            cell_text_documents=[t.TextDocumentItem(uri=cell, language_id=language, version=1,
                                                    text=text) for cell, language, text in cells]))
        return [cell for cell, _, _ in cells]

    def change_notebook(self, uri: str, version: int,
                        texts: list[tuple[str, int, t.TextDocumentContentChangeEvent]] = (),
                        structure: t.NotebookDocumentCellChangeStructure | None = None) -> None:
        """A ``notebookDocument/didChange`` of notebook ``uri`` to ``version``: ``texts``
        are (cell URI, its new version, the change), ``structure`` cells added or removed."""
        self.notebook_document_did_change(t.DidChangeNotebookDocumentParams(
            notebook_document=t.VersionedNotebookDocumentIdentifier(version=version, uri=uri),
            change=t.NotebookDocumentChangeEvent(cells=t.NotebookDocumentCellChanges(
                structure=structure,
                text_content=[t.NotebookDocumentCellContentChanges(
                    document=t.VersionedTextDocumentIdentifier(uri=cell, version=v),
                    changes=[change]) for cell, v, change in texts] or None))))

    def save(self, uri: str) -> None:
        self.text_document_did_save(t.DidSaveTextDocumentParams(t.TextDocumentIdentifier(uri)))

    def configuration_changed(self) -> None:
        self.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings=None))

    def replace_all(self, uri: str, version: int, text: str) -> None:
        self.change(uri, version, t.TextDocumentContentChangeWholeDocument(text=text))

    async def hover(self, uri: str, line: int, character: int) -> str | None:
        result = await asyncio.wait_for(self.text_document_hover_async(t.HoverParams(
            t.TextDocumentIdentifier(uri), t.Position(line, character))), TIMEOUT)
        return None if result is None else result.contents.value

    async def actions(self, uri: str, rng: t.Range, diagnostics=(), only=None
                      ) -> list[t.CodeAction]:
        result = await asyncio.wait_for(self.text_document_code_action_async(t.CodeActionParams(
            t.TextDocumentIdentifier(uri), rng,
            t.CodeActionContext(diagnostics=list(diagnostics), only=only))), TIMEOUT)
        return list(result or [])

    async def resolved_edit(self, action: t.CodeAction) -> t.WorkspaceEdit | None:
        """The action's edit, resolving it first if the server left it for later."""
        if action.edit is None:
            action = await asyncio.wait_for(self.code_action_resolve_async(action), TIMEOUT)
        return action.edit

    async def command(self, name: str, *arguments: Any) -> Any:
        return await asyncio.wait_for(self.workspace_execute_command_async(
            t.ExecuteCommandParams(command=name, arguments=list(arguments))), TIMEOUT)


def _publish(client: LanguageClient, params: t.PublishDiagnosticsParams) -> None:
    client.on_publish(params)


def _apply_edit(client: LanguageClient, params: t.ApplyWorkspaceEditParams
                ) -> t.ApplyWorkspaceEditResult:
    client.applied.append(params)
    return t.ApplyWorkspaceEditResult(applied=True)


def _create_progress(client: Client, params: t.WorkDoneProgressCreateParams) -> None:
    DEFAULT_CLIENT_FEATURES[t.WINDOW_WORK_DONE_PROGRESS_CREATE](client, params)
    client.event("create", params.token)


def _progress(client: Client, params: t.ProgressParams) -> None:
    DEFAULT_CLIENT_FEATURES[t.PROGRESS](client, params)
    client.event(params.value["kind"], params.token)


def _register(client: LanguageClient, params: t.RegistrationParams) -> None:
    client.registrations.extend(params.registrations)
    client.registered.set()


def _refresh(client: LanguageClient, params: None) -> None:
    client.diagnostic_refresh_count += 1
    client.refreshed.set()


def make_client() -> Client:
    client = Client()
    register_lsp_features(client, {
        **DEFAULT_CLIENT_FEATURES,
        t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _publish,
        t.WORKSPACE_APPLY_EDIT: _apply_edit,
        t.CLIENT_REGISTER_CAPABILITY: _register,
        t.WORKSPACE_DIAGNOSTIC_REFRESH: _refresh,
        t.WINDOW_WORK_DONE_PROGRESS_CREATE: _create_progress,
        t.PROGRESS: _progress,
    })
    return client


def text_edits(edit: t.WorkspaceEdit, uri: str) -> list[t.TextEdit]:
    """The text edits a workspace edit makes to ``uri`` (``changes`` or ``documentChanges``)."""
    if edit.document_changes:
        return [e for dc in edit.document_changes if dc.text_document.uri == uri for e in dc.edits]
    return list((edit.changes or {}).get(uri, []))


def _offset(text: str, position: t.Position, encoding: str) -> int:
    lines = text.splitlines(keepends=True)
    start = sum(len(line) for line in lines[:position.line])
    line = lines[position.line] if position.line < len(lines) else ""
    codec = {"utf-8": "utf-8", "utf-32": "utf-32-le"}.get(encoding, "utf-16-le")
    width = {"utf-8": 1, "utf-32": 4}.get(encoding, 2)
    encoded = line.encode(codec)[: position.character * width]
    return start + len(encoded.decode(codec))


def apply_text_edits(text: str, edits: list[t.TextEdit], encoding: str = "utf-16") -> str:
    """``text`` with LSP ``edits`` applied as a client applies them (all at once)."""
    spans = sorted(((_offset(text, e.range.start, encoding), _offset(text, e.range.end, encoding),
                     e.new_text) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def server_config(command: list[str], env: dict[str, str] | None = None) -> ClientServerConfig:
    environ = {k: v for k, v in os.environ.items()
               if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    return ClientServerConfig(server_command=command, client_factory=make_client,
                              server_env={**environ, **(env or {})})


async def start(client: Client, profile: str, init_options: Any = None,
                root: pathlib.Path | None = None, locale: str | None = None,
                configuration: dict | None = None, refresh: bool = False,
                progress: bool = True, notebooks: bool = False) -> t.InitializeResult:
    """Initialise ``client`` as ``profile`` would; ``configuration`` is what it answers
    to workspace/configuration for section ``gradguard``; ``refresh``: the client also
    supports ``workspace/diagnostic/refresh``; ``progress`` False: it does not support
    ``window.workDoneProgress`` (every profile does); ``notebooks``: it syncs notebooks
    (``notebookDocument.synchronization`` as vscode-languageclient 9 fills it in; no
    profile pytest-lsp ships does)."""
    if configuration is not None:
        client.set_configuration(configuration, section="gradguard")
    folders = [t.WorkspaceFolder(uri=root.as_uri(), name=root.name)] if root else None
    capabilities = client_capabilities(profile)
    if refresh:
        capabilities.workspace.diagnostics = t.DiagnosticWorkspaceClientCapabilities(
            refresh_support=True)
    if not progress:
        capabilities.window.work_done_progress = False
    if notebooks:
        capabilities.notebook_document = t.NotebookDocumentClientCapabilities(
            synchronization=t.NotebookDocumentSyncClientCapabilities(
                dynamic_registration=True, execution_summary_support=True))
    return await asyncio.wait_for(client.initialize_session(t.InitializeParams(
        capabilities=capabilities,
        client_info=t.ClientInfo(name=profile),
        initialization_options=init_options,
        locale=locale,
        root_uri=root.as_uri() if root else None,
        workspace_folders=folders)), TIMEOUT)


def encoding_of(result: t.InitializeResult) -> str:
    return result.capabilities.position_encoding or "utf-16"
