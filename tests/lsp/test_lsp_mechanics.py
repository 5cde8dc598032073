"""The server's mechanics against a scripted engine (``fake_server.py``): sync,
versions, push and pull, broken buffers, code actions, hover, commands, concurrency."""

from __future__ import annotations

import pytest
from lsprotocol import types as t

from lsp_client import Client, apply_text_edits, encoding_of, text_edits

pytestmark = pytest.mark.asyncio

URI = "file:///tmp/gg-mechanics/train.py"
TEXT = "net = Net()\nloss = net(x)\nloss.boom()\nprint(loss)\n"


def rng(l0, c0, l1, c1):
    return t.Range(t.Position(l0, c0), t.Position(l1, c1))


async def test_open_publishes_exact_diagnostic(fake: Client):
    fake.open(URI, TEXT)
    [d] = await fake.diagnostics_of(URI, 1)
    assert d.range == rng(2, 5, 2, 11)
    assert (d.code, d.source, d.severity) == ("GG101", "gradguard", t.DiagnosticSeverity.Error)
    assert d.message == "`loss` is backpropagated twice"
    assert d.code_description.href == "https://github.com/gradguard/gradguard/blob/main/docs/rules/GG101.md"
    [related] = d.related_information
    assert (related.location.uri, related.location.range, related.message) == (
        URI, rng(0, 0, 0, 4), "graph built here")
    assert d.data == {"version": 1, "fixes": [
        {"title": "Call safe() instead", "preferred": True,
         "edits": [{"range": [2, 5, 2, 9], "newText": "safe"}]},
        {"title": "Retain the graph (slow)", "preferred": False,
         "edits": [{"range": [2, 10, 2, 10], "newText": "retain_graph=True"}]},
    ]}



async def test_edit_publishes_the_new_version_with_moved_diagnostic(fake: Client):
    fake.open(URI, TEXT)
    await fake.diagnostics_of(URI, 1)
    fake.change(URI, 2, t.TextDocumentContentChangePartial(range=rng(1, 0, 1, 0),
                                                            text="x = 1\n"))
    [d] = await fake.diagnostics_of(URI, 2)
    assert d.range == rng(3, 5, 3, 11)
    assert d.data["version"] == 2
    fake.change(URI, 3, t.TextDocumentContentChangePartial(range=rng(3, 5, 3, 9), text="safe"))
    assert await fake.diagnostics_of(URI, 3) == []


async def test_broken_buffer_keeps_last_good_diagnostics_on_their_new_lines(fake: Client):
    fake.open(URI, TEXT)
    await fake.diagnostics_of(URI, 1)
    # two lines inserted above the finding, and an unclosed bracket below it
    fake.change(URI, 2,
                t.TextDocumentContentChangePartial(range=rng(0, 0, 0, 0), text="import a\nimport b\n"),
                t.TextDocumentContentChangePartial(range=rng(5, 11, 5, 11), text=" + (1"))
    [d] = await fake.diagnostics_of(URI, 2)
    assert (d.code, d.range) == ("GG101", rng(4, 5, 4, 11))
    assert d.related_information[0].location.range == rng(2, 0, 2, 4)
    assert d.data["fixes"][0]["edits"] == [{"range": [4, 5, 4, 9], "newText": "safe"}]
    # a line inserted above: the finding follows its line
    fake.change(URI, 3, t.TextDocumentContentChangePartial(range=rng(4, 0, 4, 0), text="y = (\n"))
    [d] = await fake.diagnostics_of(URI, 3)
    assert d.range == rng(5, 5, 5, 11)
    # the finding's own line is cut in two: it is dropped, not guessed
    fake.change(URI, 4, t.TextDocumentContentChangePartial(range=rng(5, 5, 5, 5), text="\n"))
    assert await fake.diagnostics_of(URI, 4) == []


async def test_close_clears_pushed_diagnostics(fake: Client):
    if fake.pulls:
        pytest.skip("pull clients drop a closed document's diagnostics themselves")
    fake.open(URI, TEXT)
    await fake.diagnostics_of(URI, 1)
    cleared = fake.next_publish(URI)
    fake.text_document_did_close(t.DidCloseTextDocumentParams(t.TextDocumentIdentifier(URI)))
    params = await cleared
    assert (params.version, list(params.diagnostics)) == (None, [])


async def test_pull_reports_result_ids_and_unchanged(fake: Client):
    if not fake.pulls:
        pytest.skip("this client profile has no pull diagnostics: it gets pushes")
    fake.open(URI, TEXT)
    first = await fake.pull(URI)
    assert [d.code for d in first.items] == ["GG101"] and first.result_id
    again = await fake.pull(URI, first.result_id)
    assert again.kind == "unchanged" and again.result_id == first.result_id
    fake.change(URI, 2, t.TextDocumentContentChangePartial(range=rng(2, 5, 2, 9), text="safe"))
    fresh = await fake.pull(URI, first.result_id)
    assert (fresh.kind, list(fresh.items)) == ("full", []) and fresh.result_id != first.result_id
    assert fake.published == []


async def test_push_clients_get_no_pull_only_server_state(fake: Client):
    """The push profiles never see a pull-only behaviour: every publish has a version."""
    if fake.pulls:
        pytest.skip("pull client")
    fake.open(URI, TEXT)
    await fake.diagnostics_of(URI, 1)
    assert [p.version for p in fake.published] == [1]


async def test_code_actions_quick_fixes_suppress_and_fix_all(fake: Client):
    fake.open(URI, TEXT)
    [d] = await fake.diagnostics_of(URI, 1)
    actions = await fake.actions(URI, rng(2, 7, 2, 7), [d])
    assert [(a.title, a.kind, a.is_preferred) for a in actions] == [
        ("Call safe() instead", "quickfix", True),
        ("Retain the graph (slow)", "quickfix", None),
        ("Suppress GG101 on this line", "quickfix", None),
        ("Fix all GradGuard problems", "source.fixAll.gradguard", None),
    ]
    lazy = "edit" in (fake.capabilities.text_document.code_action.resolve_support.properties
                      if fake.capabilities.text_document.code_action.resolve_support else [])
    assert all((a.edit is None) == lazy for a in actions)
    edits = [text_edits(await fake.resolved_edit(a), URI) for a in actions]
    assert edits[0] == [t.TextEdit(rng(2, 5, 2, 9), "safe")]
    assert edits[1] == [t.TextEdit(rng(2, 10, 2, 10), "retain_graph=True")]
    assert edits[2] == [t.TextEdit(rng(2, 11, 2, 11), "  # noqa: GG101")]
    assert edits[3] == edits[0]
    enc = encoding_of(fake.init_result)
    suppressed = apply_text_edits(TEXT, edits[2], enc)
    assert suppressed.splitlines()[2] == "loss.boom()  # noqa: GG101"
    fake.replace_all(URI, 2, suppressed)
    assert await fake.diagnostics_of(URI, 2) == []
    fake.replace_all(URI, 3, apply_text_edits(TEXT, edits[0], enc))
    assert await fake.diagnostics_of(URI, 3) == []


async def test_code_actions_filtered_by_kind_and_range(fake: Client):
    fake.open(URI, TEXT + "loss.boom()\n")
    await fake.diagnostics_of(URI, 1)
    fix_all = await fake.actions(URI, rng(0, 0, 0, 0), only=["source.fixAll"])
    assert [a.title for a in fix_all] == ["Fix all GradGuard problems"]
    assert text_edits(await fake.resolved_edit(fix_all[0]), URI) == [
        t.TextEdit(rng(2, 5, 2, 9), "safe"), t.TextEdit(rng(4, 5, 4, 9), "safe")]
    assert await fake.actions(URI, rng(0, 0, 1, 0), only=["quickfix"]) == []
    assert [a.title for a in await fake.actions(URI, rng(4, 0, 4, 6), only=["quickfix"])] == [
        "Call safe() instead", "Retain the graph (slow)", "Suppress GG101 on this line"]


async def test_stale_actions_are_not_offered(fake: Client):
    """A code action for a version whose analysis is not published yet would edit the
    wrong text: none is offered until the new diagnostics are out."""
    fake.open(URI, TEXT + "# block\n")
    started = fake.command("test.waitStarted")
    assert await started is True
    fake.replace_all(URI, 2, "\n" + TEXT)
    assert await fake.actions(URI, rng(3, 7, 3, 7)) == []
    assert await fake.command("test.release") is True
    [d] = await fake.diagnostics_of(URI, 2)
    assert d.range == rng(3, 5, 3, 11)
    assert fake.published == [] or [p.version for p in fake.published] == [2]


async def test_hover_answers_while_analysis_runs_and_newer_edit_supersedes(fake: Client):
    fake.open(URI, TEXT + "# block\n")
    assert await fake.command("test.waitStarted") is True
    # the engine is busy in its worker thread; the server still answers
    hover = await fake.hover(URI, 2, 6)
    assert hover is None  # nothing published yet: no finding to explain, not a token
    assert (await fake.hover(URI, 0, 2)) is None
    fake.replace_all(URI, 2, "net = Net()\nloss = net(x)\nprint(loss)\nloss.boom()\n")
    assert await fake.command("test.release") is True
    [d] = await fake.diagnostics_of(URI, 2)
    assert d.range == rng(3, 5, 3, 11)
    if not fake.pulls:
        assert [p.version for p in fake.published] == [2]  # version 1 never published


async def test_hover_on_finding_explains_it(fake: Client):
    fake.open(URI, TEXT)
    await fake.diagnostics_of(URI, 1)
    hover = await fake.hover(URI, 2, 7)
    assert hover.split("\n\n")[:4] == [
        "**GG101** `backward-through-freed-graph`",
        "**Fix:** Call safe() instead",
        "**Why:**\n- line 1: graph built here",
        "**At run time:** Raises `RuntimeError: Trying to backward through the graph a second "
        "time (or directly access saved tensors after they have already been freed)`.",
    ]


async def test_explain_command_and_fix_all_command(fake: Client):
    assert (await fake.command("gradguard.explain", "GG101")).startswith(
        "**GG101** `backward-through-freed-graph`")
    assert await fake.command("gradguard.explain", "GG999") is None
    fake.open(URI, TEXT)
    await fake.diagnostics_of(URI, 1)
    assert await fake.command("gradguard.fixAll", URI) is True
    [params] = fake.applied
    assert params.label == "Fix all GradGuard problems"
    assert text_edits(params.edit, URI) == [t.TextEdit(rng(2, 5, 2, 9), "safe")]


async def test_no_suppress_action_where_a_comment_cannot_go(fake: Client):
    # the finding starts on a line that ends inside a multi-line string
    text = 'x = 1\ny = f(loss.boom(), """\n""")\n'
    fake.open(URI, text)
    [d] = await fake.diagnostics_of(URI, 1)
    actions = await fake.actions(URI, d.range, [d])
    suppress = [a for a in actions if a.title.startswith("Suppress")]
    if suppress:  # a lazy client is offered it, and resolving it gives no edit
        assert await fake.resolved_edit(suppress[0]) is None
    else:
        assert [a.title for a in actions] == [
            "Call safe() instead", "Retain the graph (slow)", "Fix all GradGuard problems"]
