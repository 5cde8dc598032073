"""``gradguard lsp`` on a two-file program (the real engine, imports followed): train.py
imports ``Block`` from block.py, whose forward adds in place to an activation its ReLU
saved (GG202, reported at train.py's backward, its site and fix in block.py), and
accumulates its loss with the graph (GG301, fixed in train.py). Related locations and
edits in block.py, the unsaved text of an open block.py, re-diagnosing train.py when
block.py changes, fix-all staying in train.py."""

from __future__ import annotations

import asyncio
import pathlib

import pytest
from lsprotocol import types as t

from gradguard.lsp.documents import DocumentState
from gradguard.lsp.server import GradGuardServer
from lsp_client import TIMEOUT, Client, apply_text_edits, encoding_of, text_edits
from test_imports import INPLACE_MODEL, INPLACE_TRAIN, MODEL
from test_imports import TRAIN as LM_TRAIN

pytestmark = pytest.mark.asyncio

# a character outside the BMP before the in-place add: its columns differ per encoding
BLOCK = INPLACE_MODEL.replace("        out += x\n", '        _ = "😀"; out += x\n')
FIXED_BLOCK = BLOCK.replace("out += x", "out = out + x")
TRAIN = INPLACE_TRAIN.replace("for _ in", "total = 0\nfor _ in") + "    total += loss\n"

GG202_MESSAGE = ("In-place change of `out`, which `self.body(x)` (line block.py:10) saved "
                 "for backward")
GG202_FIX = "Use the out-of-place form: `out = out + x`"
GG301_MESSAGE = ("`total` accumulates `loss` with its autograd graph: every iteration's "
                 "graph stays in memory")


def rng(l0, c0, l1, c1):
    return t.Range(t.Position(l0, c0), t.Position(l1, c1))


def add_range(client: Client) -> t.Range:
    """The range of ``out += x`` on line 11 of block.py: code points 17-25, after the
    emoji (1 code point, 2 UTF-16 units, 4 UTF-8 bytes)."""
    extra = {"utf-32": 0, "utf-16": 1, "utf-8": 3}[encoding_of(client.init_result)]
    return rng(10, 17 + extra, 10, 25 + extra)


@pytest.fixture
def workspace(tmp_path) -> pathlib.Path:
    (tmp_path / "block.py").write_text(BLOCK, encoding="utf-8")
    (tmp_path / "train.py").write_text(TRAIN, encoding="utf-8")
    return tmp_path


def uris(folder: pathlib.Path) -> tuple[str, str]:
    return (folder / "train.py").as_uri(), (folder / "block.py").as_uri()


async def _reanalysed(client: Client, uri: str, version: int, action) -> list[t.Diagnostic]:
    """The diagnostics of ``uri`` (unchanged at ``version``) after ``action`` changed a
    module it imports: pushed again, or pulled (the pull waits for the new analysis)."""
    if client.pulls:
        action()
        return await client.diagnostics_of(uri, version)
    published = client.next_publish(uri, version)
    action()
    return list((await asyncio.wait_for(published, TIMEOUT)).diagnostics)


async def test_finding_with_related_locations_in_the_imported_file(real: Client, workspace):
    train, block = uris(workspace)
    real.open(train, TRAIN)
    gg202, gg301 = await real.diagnostics_of(train, 1)
    assert (gg202.code, gg202.range, gg202.message) == ("GG202", rng(10, 4, 10, 19),
                                                        GG202_MESSAGE)
    assert [(r.location.uri, r.location.range, r.message)
            for r in gg202.related_information] == [
        (block, add_range(real), "it happens here, in block.py"),
        (block, rng(9, 14, 9, 26), "`out` was saved for backward here")]
    assert (gg301.code, gg301.range, gg301.message) == ("GG301", rng(12, 4, 12, 17),
                                                        GG301_MESSAGE)


async def test_unsaved_text_of_an_open_import_wins_over_the_disk(real: Client, workspace):
    train, block = uris(workspace)
    real.open(train, TRAIN)
    assert [d.code for d in await real.diagnostics_of(train, 1)] == ["GG202", "GG301"]
    real.open(block, BLOCK)
    assert await real.diagnostics_of(block, 1) == []
    # with block.py open, the cross-file fix is versioned by its buffer
    [gg202, _] = await real.diagnostics_of(train, 1)
    edit = await real.resolved_edit((await real.actions(train, gg202.range, [gg202]))[0])
    if edit.document_changes:
        assert [(c.text_document.uri, c.text_document.version)
                for c in edit.document_changes] == [(block, 1)]
    [gg301] = await _reanalysed(real, train, 1, lambda: real.change(
        block, 2, t.TextDocumentContentChangePartial(range=add_range(real),
                                                      text="out = out + x")))
    assert (gg301.code, gg301.range) == ("GG301", rng(12, 4, 12, 17))
    assert (workspace / "block.py").read_text(encoding="utf-8") == BLOCK  # not saved
    # and back: the hazard is reported again
    diagnostics = await _reanalysed(real, train, 1, lambda: real.replace_all(block, 3, BLOCK))
    assert [(d.code, d.range) for d in diagnostics] == [
        ("GG202", rng(10, 4, 10, 19)), ("GG301", rng(12, 4, 12, 17))]


async def test_cross_file_fix_edits_the_imported_file(real: Client, workspace):
    train, block = uris(workspace)
    real.open(train, TRAIN)
    gg202, _ = await real.diagnostics_of(train, 1)
    actions = await real.actions(train, gg202.range, [gg202])
    assert [(a.title, a.is_preferred) for a in actions] == [
        (GG202_FIX, True), ("Suppress GG202 on this line", None),
        ("Fix all GradGuard problems", None)]
    edit = await real.resolved_edit(actions[0])
    assert text_edits(edit, train) == []
    edits = text_edits(edit, block)
    assert edits == [t.TextEdit(add_range(real), "out = out + x")]
    if edit.document_changes:  # block.py is not open: the edit is to the file on disk
        assert [(c.text_document.uri, c.text_document.version)
                for c in edit.document_changes] == [(block, None)]
    assert apply_text_edits(BLOCK, edits, encoding_of(real.init_result)) == FIXED_BLOCK


async def test_fix_all_applies_only_the_fixes_in_the_file(real: Client, workspace):
    train, block = uris(workspace)
    real.open(train, TRAIN)
    await real.diagnostics_of(train, 1)
    [fix_all] = await real.actions(train, rng(0, 0, 0, 0), only=["source.fixAll"])
    edit = await real.resolved_edit(fix_all)
    assert text_edits(edit, block) == []
    assert text_edits(edit, train) == [t.TextEdit(rng(12, 13, 12, 17), "loss.detach()")]
    assert await real.command("gradguard.fixAll", train) is True
    assert text_edits(real.applied[0].edit, block) == []
    assert text_edits(real.applied[0].edit, train) == [
        t.TextEdit(rng(12, 13, 12, 17), "loss.detach()")]


async def test_a_change_on_disk_to_an_imported_module_re_diagnoses(real: Client, workspace):
    train, block = uris(workspace)
    real.open(train, TRAIN)
    assert [d.code for d in await real.diagnostics_of(train, 1)] == ["GG202", "GG301"]
    if real.capabilities.workspace.did_change_watched_files.dynamic_registration:
        await asyncio.wait_for(real.registered.wait(), TIMEOUT)
        [reg] = real.registrations
        assert reg.register_options["watchers"] == [{"globPattern": "**/pyproject.toml"},
                                                    {"globPattern": "**/*.py"}]
    (workspace / "block.py").write_text(FIXED_BLOCK, encoding="utf-8")
    [gg301] = await _reanalysed(real, train, 1, lambda: real.workspace_did_change_watched_files(
        t.DidChangeWatchedFilesParams(changes=[t.FileEvent(uri=block,
                                                           type=t.FileChangeType.Changed)])))
    assert gg301.code == "GG301"


async def test_a_module_created_on_disk_is_found(real: Client, workspace):
    train, block = uris(workspace)
    (workspace / "block.py").unlink()
    real.open(train, TRAIN)
    [gg301] = await real.diagnostics_of(train, 1)  # Block is an unknown name
    assert gg301.code == "GG301"
    (workspace / "block.py").write_text(BLOCK, encoding="utf-8")
    diagnostics = await _reanalysed(real, train, 1, lambda: real.workspace_did_change_watched_files(
        t.DidChangeWatchedFilesParams(changes=[t.FileEvent(uri=block,
                                                           type=t.FileChangeType.Created)])))
    assert [d.code for d in diagnostics] == ["GG202", "GG301"]


KEEP = "def keep(h):\n    return h\n"
LM_MODEL = MODEL.replace("import torch.nn as nn\n", "import torch.nn as nn\n\nfrom utils import keep\n"
                         ).replace("        out, self.hidden = self.rnn(", "        out, hidden = self.rnn("
                                   ).replace("        return self.head(out)",
                                             "        self.hidden = keep(hidden)\n"
                                             "        return self.head(out)")


async def test_a_change_to_a_module_imported_in_turn_re_diagnoses(real: Client, workspace):
    """lm.py imports model.py, whose forward keeps its hidden state through utils.py's
    ``keep``: editing utils.py (model.py unchanged) changes lm.py's findings."""
    (workspace / "utils.py").write_text(KEEP, encoding="utf-8")
    (workspace / "model.py").write_text(LM_MODEL, encoding="utf-8")
    lm, utils = (workspace / "lm.py").as_uri(), (workspace / "utils.py").as_uri()
    text = LM_TRAIN.format(module="model", more="", before="")
    real.open(lm, text)
    [d] = await real.diagnostics_of(lm, 1)
    assert (d.code, d.range) == ("GG102", rng(12, 4, 12, 19))
    real.open(utils, KEEP)
    assert await _reanalysed(real, lm, 1, lambda: real.replace_all(
        utils, 2, KEEP.replace("return h", "return h.detach()"))) == []


@pytest.mark.init(refresh=True)
async def test_pull_clients_are_asked_to_refresh(real: Client, workspace):
    train, block = uris(workspace)
    real.open(train, TRAIN)
    first = await real.diagnostics_of(train, 1)
    assert [d.code for d in first] == ["GG202", "GG301"]
    real.open(block, BLOCK)
    if not real.pulls:  # pushed, never asked to pull
        assert [d.code for d in await _reanalysed(
            real, train, 1, lambda: real.replace_all(block, 2, FIXED_BLOCK))] == ["GG301"]
        assert real.diagnostic_refresh_count == 0
        return
    real.refreshed.clear()
    real.replace_all(block, 2, FIXED_BLOCK)
    await asyncio.wait_for(real.refreshed.wait(), TIMEOUT)  # without pulling first
    report = await real.pull(train)
    assert [d.code for d in report.items] == ["GG301"]


async def test_only_the_documents_that_read_a_module_are_analysed_again():
    ls = GradGuardServer()
    scheduled: list[str] = []
    ls.schedule = lambda uri, delay: scheduled.append(uri)
    a, b = DocumentState("file:///p/a.py", None, "/p/a.py"), \
        DocumentState("file:///p/b.py", None, "/p/b.py")
    a.deps = {"/p/model.py": "1" * 64}
    ls.documents = {a.uri: a, b.uri: b}
    ls.known_deps = {"/p/model.py"}
    ls.module_changed("/p/b.py", "x = 1\n", on_type=True)  # nothing reads b.py
    ls.module_changed("/p/other.py")
    assert (scheduled, ls.module_edits) == ([], [])
    ls.module_changed("/p/model.py", "x = 2\n", on_type=True)
    assert (scheduled, a.stale, b.stale, ls.module_edits) == (
        ["file:///p/a.py"], True, False, ["/p/model.py"])


async def test_diagnostics_equal_to_those_published_for_the_same_version_are_not_sent_again(
        monkeypatch):
    """A module a document imports changed, and not what the document sees of it: the
    re-diagnosis finds what was published for that version, and nothing is sent (the
    pull result id stays); a new version, or other diagnostics, are sent."""
    from gradguard import config
    from gradguard.analysis import analyze
    from gradguard.lsp.documents import Snapshot

    ls = GradGuardServer()
    sent: list = []
    ls.text_document_publish_diagnostics = sent.append
    ls.config_for, ls.locale_for = (lambda uri: config.Settings()), (lambda uri: "en")
    monkeypatch.setattr(GradGuardServer, "encoding", t.PositionEncodingKind.Utf16)
    state = DocumentState("file:///p/a.py", None, "/p/a.py")
    ls.documents = {state.uri: state}
    text = "import torch\nw = torch.ones(2, requires_grad=True)\ny = (w * 2).exp().sum()\n" \
        "y.backward()\ny.backward()\n"
    findings = analyze(text).findings
    assert [(f.code, f.span.start.line) for f in findings] == [("GG101", 5)]
    ls.publish(state, Snapshot(1, text, findings))
    first = state.published.result_id
    ls.publish(state, Snapshot(1, text, analyze(text).findings))
    assert ([p.version for p in sent], state.published.result_id) == ([1], first)
    ls.publish(state, Snapshot(1, text, ()))
    ls.publish(state, Snapshot(2, text, ()))
    assert [(p.version, len(p.diagnostics)) for p in sent] == [(1, 1), (1, 0), (2, 0)]
    assert state.published.result_id != first
