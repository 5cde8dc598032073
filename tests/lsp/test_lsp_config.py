"""Configuration of ``gradguard lsp``: initializationOptions, workspace/configuration and
its changes, ``[tool.gradguard]`` in pyproject.toml and its reload, invalid settings,
``enable`` and ``run``."""

from __future__ import annotations

import asyncio
import pathlib

import pytest
from lsprotocol import types as t

from lsp_client import TIMEOUT, Client, apply_text_edits, encoding_of

pytestmark = pytest.mark.asyncio

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
DCGAN = (EXAMPLES / "dcgan.py").read_text()
URI = "file:///tmp/gg-config/dcgan.py"
DETACH = t.TextEdit(t.Range(t.Position(36, 70), t.Position(36, 70)), ".detach()")


@pytest.fixture
def workspace(tmp_path) -> pathlib.Path:
    """A project folder with a pyproject.toml that ignores GG101, and dcgan.py."""
    (tmp_path / "pyproject.toml").write_text('[tool.gradguard]\nignore = ["GG101"]\n')
    (tmp_path / "dcgan.py").write_text(DCGAN)
    return tmp_path


async def _refreshed(client: Client, uri: str, version: int, action) -> list[t.Diagnostic]:
    """The diagnostics of ``uri`` after ``action`` made the server re-analyse it."""
    if client.pulls:
        action()
        return await client.diagnostics_of(uri, version)
    published = client.next_publish(uri, version)
    action()
    return list((await asyncio.wait_for(published, TIMEOUT)).diagnostics)


@pytest.mark.init(options={"ignore": ["GG101"], "debounceMs": -1, "run": "sometimes"})
async def test_initialization_options_apply_and_invalid_ones_are_shown(real: Client):
    real.open(URI, DCGAN)
    assert await real.diagnostics_of(URI, 1) == []
    assert [(m.type, m.message) for m in real.messages] == [
        (t.MessageType.Warning, "GradGuard: initializationOptions: gradguard.debounceMs: expected "
                                "a whole number of milliseconds, 0 or more. Using the default."),
        (t.MessageType.Warning, "GradGuard: initializationOptions: gradguard.run: expected onType "
                                "or onSave, not 'sometimes'. Using the default."),
    ]


@pytest.mark.init(configuration={"severity": {"backward-through-freed-graph": "info"}})
async def test_workspace_configuration_and_its_changes(real: Client):
    real.open(URI, DCGAN)
    [d, hint] = await real.diagnostics_of(URI, 1)
    assert (d.severity, hint.severity) == (t.DiagnosticSeverity.Information,
                                           t.DiagnosticSeverity.Hint)
    real.set_configuration({"severity": {"GG1": "warning"}, "select": ["GG9"]}, section="gradguard")
    [d, hint] = await _refreshed(real, URI, 1, real.configuration_changed)
    assert (d.severity, hint.severity) == (t.DiagnosticSeverity.Warning, t.DiagnosticSeverity.Hint)
    assert real.messages[-1].message == ("GradGuard: workspace settings: gradguard.select: unknown "
                                         "rule, code or prefix 'GG9'. Using the default.")
    real.set_configuration({"enable": False}, section="gradguard")
    assert await _refreshed(real, URI, 1, real.configuration_changed) == []
    assert await real.hover(URI, 43, 14) is None


@pytest.mark.init(options={"run": "onSave"})
async def test_run_on_save_carries_findings_until_saved(real: Client):
    real.open(URI, DCGAN)
    await real.diagnostics_of(URI, 1)
    real.change(URI, 2, t.TextDocumentContentChangePartial(range=t.Range(
        t.Position(0, 0), t.Position(0, 0)), text="\n"))
    [carried, hint] = await real.diagnostics_of(URI, 2)  # not analysed: moved down one line
    assert (carried.code, carried.range.start.line, hint.range.start.line) == ("GG101", 44, 37)
    fixed = apply_text_edits("\n" + DCGAN, [t.TextEdit(t.Range(t.Position(37, 70), t.Position(37, 70)),
                                                       ".detach()")], encoding_of(real.init_result))
    real.replace_all(URI, 3, fixed)
    [still] = await real.diagnostics_of(URI, 3)  # the fix's line changed: its fix, hint dropped
    assert still.range.start.line == 44
    assert await _refreshed(real, URI, 3, lambda: real.save(URI)) == []


async def test_pyproject_applies_and_reloads_when_it_changes(real: Client, workspace):
    uri = (workspace / "dcgan.py").as_uri()
    real.open(uri, DCGAN)
    assert await real.diagnostics_of(uri, 1) == []
    if real.capabilities.workspace.did_change_watched_files.dynamic_registration:
        await asyncio.wait_for(real.registered.wait(), TIMEOUT)
        [reg] = real.registrations
        assert reg.method == "workspace/didChangeWatchedFiles"
        assert reg.register_options["watchers"] == [{"globPattern": "**/pyproject.toml"},
                                                    {"globPattern": "**/*.py"}]
    (workspace / "pyproject.toml").write_text('[tool.gradguard]\nseverity = { GG101 = "warning" }\n')

    def changed():
        real.workspace_did_change_watched_files(t.DidChangeWatchedFilesParams(changes=[
            t.FileEvent(uri=(workspace / "pyproject.toml").as_uri(), type=t.FileChangeType.Changed)]))

    [d, _] = await _refreshed(real, uri, 1, changed)
    assert (d.code, d.severity) == ("GG101", t.DiagnosticSeverity.Warning)
    (workspace / "pyproject.toml").write_text(
        '[tool.gradguard]\nselect = ["GG9"]\nseverty = { GG101 = "warning" }\n')
    [d, _] = await _refreshed(real, uri, 1, changed)
    assert d.severity == t.DiagnosticSeverity.Error  # defaults used
    assert [m.message for m in real.messages[-2:]] == [  # every problem, each shown
        f"GradGuard: {workspace / 'pyproject.toml'}: tool.gradguard.select: unknown rule, code "
        "or prefix 'GG9'. Using the default.",
        f"GradGuard: {workspace / 'pyproject.toml'}: tool.gradguard.severty: unknown key (did "
        "you mean `severity`?). Using the default."]


@pytest.mark.init(options={"locale": "zh-CN", "debounceMs": "fast"})
async def test_invalid_setting_message_in_the_user_locale(real: Client):
    real.open(URI, DCGAN)
    await real.diagnostics_of(URI, 1)
    [message] = real.messages
    assert "gradguard.debounceMs" in message.message and "Using the default" not in message.message
