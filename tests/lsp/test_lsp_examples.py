"""``gradguard lsp`` with the real engine on the examples: exact diagnostics, code
actions, applied fixes, hover in English and Chinese, locale negotiation, broken buffers."""

from __future__ import annotations

import asyncio
import pathlib
import re

import pytest
from lsprotocol import types as t

from broken_roots import BROKEN_ROOT
from lsp_client import Client, apply_text_edits, encoding_of, text_edits

pytestmark = pytest.mark.asyncio

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
DCGAN = (EXAMPLES / "dcgan.py").read_text()
CHAR_RNN = (EXAMPLES / "char_rnn.py").read_text()
ACTOR_CRITIC = (EXAMPLES / "actor_critic.py").read_text()
URI = "file:///tmp/gg-examples/dcgan.py"

DCGAN_MESSAGE = ("`errG` is backpropagated through the graph of `fake` (built on line 33), which "
                 "the backward on line 38 already freed")
DETACH_TITLE = ("Detach `fake` on line 37: that loss must not backpropagate into the graph "
                "that built it")
RETAIN_TITLE = ("Silence with retain_graph=True on line 38, which hides the bug: the graph of "
                "`fake` (built on line 33, through `netG`) stays in memory until the backward "
                "on line 44 runs through it a second time")
HINT_MESSAGE = "fix here: " + DETACH_TITLE


def rng(l0, c0, l1, c1):
    return t.Range(t.Position(l0, c0), t.Position(l1, c1))


async def test_dcgan_diagnostic_quick_fix_and_clean_result(real: Client):
    real.open(URI, DCGAN)
    [d, hint] = await real.diagnostics_of(URI, 1)
    assert (d.code, d.source, d.severity, d.range) == (
        "GG101", "gradguard", t.DiagnosticSeverity.Error, rng(43, 8, 43, 23))
    assert d.message == DCGAN_MESSAGE
    assert d.code_description.href == "https://github.com/gradguard/gradguard/blob/main/docs/rules/GG101.md"
    assert [(r.location.uri, r.location.range, r.message) for r in d.related_information] == [
        (URI, rng(32, 15, 32, 49), "graph of `fake` built here"),
        (URI, rng(37, 8, 37, 23), "this backward freed it"),
        (URI, rng(36, 66, 36, 70), HINT_MESSAGE),  # where to edit: the hint, on `fake`
    ]
    # the hint sits where the preferred fix edits, two lines up, and points back
    assert (hint.code, hint.source, hint.severity, hint.range, hint.message) == (
        "GG101", "gradguard", t.DiagnosticSeverity.Hint, rng(36, 66, 36, 70), HINT_MESSAGE)
    assert hint.code_description.href == "https://github.com/gradguard/gradguard/blob/main/docs/rules/GG101.md"
    assert [(r.location.uri, r.location.range, r.message) for r in hint.related_information] \
        == [(URI, rng(43, 8, 43, 23), DCGAN_MESSAGE)]
    # the quick fixes are offered from the hint too (the suppression only on the finding's line)
    at_hint = await real.actions(URI, hint.range, [hint])
    assert [(a.title, a.kind, a.is_preferred) for a in at_hint] == [
        (DETACH_TITLE, "quickfix", True),
        (RETAIN_TITLE, "quickfix", None),
        ("Fix all GradGuard problems", "source.fixAll.gradguard", None),
    ]
    assert text_edits(await real.resolved_edit(at_hint[0]), URI) == [
        t.TextEdit(rng(36, 70, 36, 70), ".detach()")]
    assert await real.hover(URI, 36, 67) == HOVER_EN  # the hover explains it there as well
    actions = await real.actions(URI, d.range, [d])
    assert [(a.title, a.kind, a.is_preferred) for a in actions] == [
        (DETACH_TITLE, "quickfix", True),
        (RETAIN_TITLE, "quickfix", None),
        ("Suppress GG101 on this line", "quickfix", None),
        ("Fix all GradGuard problems", "source.fixAll.gradguard", None),
    ]
    [edit] = text_edits(await real.resolved_edit(actions[0]), URI)
    assert edit == t.TextEdit(rng(36, 70, 36, 70), ".detach()")
    assert text_edits(await real.resolved_edit(actions[2]), URI) == [
        t.TextEdit(rng(43, 23, 43, 23), "  # noqa: GG101")]
    fixed = apply_text_edits(DCGAN, [edit], encoding_of(real.init_result))
    assert fixed.splitlines()[36] == ("        errD = criterion(netD(real), real_label) + "
                                      "criterion(netD(fake.detach()), fake_label)")
    real.change(URI, 2, t.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text))
    assert await real.diagnostics_of(URI, 2) == []


async def test_columns_in_the_negotiated_encoding(real: Client):
    lines = DCGAN.splitlines(keepends=True)
    lines[43:45] = ['        errG = criterion(netD(fake), real_label); n = "😀"; errG.backward()\n']
    real.open(URI, "".join(lines))
    [d, _] = await real.diagnostics_of(URI, 1)
    # 59 code points precede the call; the emoji is 1 code point, 2 UTF-16 units, 4 UTF-8 bytes
    start = {"utf-32": 59, "utf-16": 60, "utf-8": 62}[encoding_of(real.init_result)]
    assert d.range == rng(43, start, 43, start + 15)
    assert await real.hover(URI, 43, start + 1) is not None


async def test_broken_buffer_keeps_real_findings_on_moved_lines(real: Client):
    uri = "file:///tmp/gg-examples/char_rnn.py"
    real.open(uri, CHAR_RNN)
    [d] = await real.diagnostics_of(uri, 1)
    assert (d.code, d.range) == ("GG102", rng(38, 12, 38, 27))
    real.change(uri, 2, t.TextDocumentContentChangePartial(range=rng(0, 0, 0, 0),
                                                            text="import (\n"))
    [moved] = await real.diagnostics_of(uri, 2)
    # the lines the message quotes moved too
    shifted = re.sub(r"line (\d+)", lambda m: f"line {int(m[1]) + 1}", d.message)
    assert shifted != d.message
    assert (moved.code, moved.range, moved.message) == ("GG102", rng(39, 12, 39, 27), shifted)
    assert [r.location.range for r in moved.related_information] == [
        rng(36, 12, 36, 45), rng(39, 12, 39, 27)]
    real.change(uri, 3, t.TextDocumentContentChangePartial(range=rng(0, 0, 1, 0), text=""))
    [back] = await real.diagnostics_of(uri, 3)
    assert back.range == d.range


async def test_an_unchanged_finding_is_published_again_for_the_new_version(real: Client):
    real.open(URI, DCGAN)
    [d, hint] = await real.diagnostics_of(URI, 1)
    # an edit on a line the finding does not touch: the diagnostic is reused, its data
    # names the new version, and its quick fix still applies
    real.change(URI, 2, t.TextDocumentContentChangePartial(range=rng(0, 3, 0, 3), text="A "))
    [again, hint_again] = await real.diagnostics_of(URI, 2)
    assert (again.range, again.message, again.related_information) == (
        d.range, d.message, d.related_information)
    assert (hint_again.range, hint_again.message) == (hint.range, hint.message)
    assert (d.data["version"], again.data["version"], hint_again.data["version"]) == (1, 2, 2)
    assert again.data["fixes"] == d.data["fixes"]
    actions = await real.actions(URI, again.range, [again])
    [edit] = text_edits(await real.resolved_edit(actions[0]), URI)
    assert edit == t.TextEdit(rng(36, 70, 36, 70), ".detach()")


async def test_a_broken_buffer_drops_fixes_computed_for_a_line_since_edited(real: Client):
    real.open(URI, DCGAN)
    [d, _] = await real.diagnostics_of(URI, 1)
    # "(" typed after "errD = " on the line the preferred fix edits: the buffer no longer
    # parses, the finding stays, but a fix placed by that line's old columns would write
    # `netD(fak.detach()e)`
    real.change(URI, 2, t.TextDocumentContentChangePartial(range=rng(36, 15, 36, 15), text="("))
    [kept] = await real.diagnostics_of(URI, 2)  # (and with the preferred fix, its hint)
    assert (kept.code, kept.range, kept.message) == ("GG101", d.range, DCGAN_MESSAGE)
    actions = await real.actions(URI, kept.range, [kept])
    assert [a.title for a in actions] == [RETAIN_TITLE, "Suppress GG101 on this line"]


async def test_fix_all_command_and_action_clear_the_file(real: Client):
    uri = "file:///tmp/gg-examples/actor_critic.py"
    real.open(uri, ACTOR_CRITIC)
    [d, *hints] = await real.diagnostics_of(uri, 1)
    assert d.code == "GG103"
    # the fix moves a line into the loop: a hint where it goes away and where it goes
    here = "fix here: Compute `logits, values` inside the loop (a new graph each iteration)"
    assert [(h.code, h.severity, h.range, h.message) for h in hints] == [
        ("GG103", t.DiagnosticSeverity.Hint, rng(27, 0, 28, 0), here),
        ("GG103", t.DiagnosticSeverity.Hint, rng(34, 0, 34, 0), here)]
    assert [(i.location.range, i.message) for i in d.related_information[-2:]] == [
        (rng(27, 0, 28, 0), here), (rng(34, 0, 34, 0), here)]
    [fix_all] = await real.actions(uri, rng(0, 0, 0, 0), only=["source.fixAll"])
    edits = text_edits(await real.resolved_edit(fix_all), uri)
    assert edits == [t.TextEdit(rng(27, 0, 28, 0), ""),
                     t.TextEdit(rng(34, 0, 34, 0), "        logits, values = model(states)\n")]
    assert await real.command("gradguard.fixAll", uri) is True
    assert text_edits(real.applied[0].edit, uri) == edits
    real.replace_all(uri, 2, apply_text_edits(ACTOR_CRITIC, edits, encoding_of(real.init_result)))
    assert await real.diagnostics_of(uri, 2) == []


HOVER_EN = "\n\n".join([  # the fix first; the diagnostic's message is not repeated
    "**GG101** `backward-through-freed-graph`",
    "**Fix:** " + DETACH_TITLE,
    "**Why:**\n- line 33: graph of `fake` built here\n- line 38: this backward freed it",
    "**At run time:** Raises `RuntimeError: Trying to backward through the graph a second "
    "time (or directly access saved tensors after they have already been freed)`.",
    "**Why not retain_graph=True:** retain_graph=True on line 38 would silence the error, "
    "not fix it: the graph of `fake` (built on line 33, through `netG`) would stay in memory "
    "until the backward on line 44 runs through it a second time.",
    "[Rule documentation](https://github.com/gradguard/gradguard/blob/main/docs/rules/GG101.md)",
])


async def test_hover_explains_the_finding_in_english(real: Client):
    real.open(URI, DCGAN)
    await real.diagnostics_of(URI, 1)
    assert await real.hover(URI, 43, 14) == HOVER_EN
    backward = await real.hover(URI, 37, 14)  # errD.backward(): a token, not a finding
    assert backward.startswith("`.backward()` computes the gradient of this tensor")


@pytest.mark.init(options={"locale": "zh-CN"})
async def test_hover_and_messages_in_chinese(real: Client):
    real.open(URI, DCGAN)
    [d, hint] = await real.diagnostics_of(URI, 1)
    assert d.message == ("对 `errG` 做反向传播时会经过 `fake` 的计算图（第 33 行构建），"
                         "而这张图已经被第 38 行的反向传播释放了")
    assert hint.message == ("在这里修复：在第 37 行分离 `fake`（detach）：那里的损失不应该反向传播进"
                            "构建 `fake` 的计算图")
    hover = await real.hover(URI, 43, 14)
    assert hover.split("\n\n")[:4] == [
        "**GG101** `backward-through-freed-graph`",
        "**修复方法：** 在第 37 行分离 `fake`（detach）：那里的损失不应该反向传播进构建 `fake` 的计算图",
        "**原因：**\n- 第 33 行：`fake` 的计算图在这里构建\n- 第 38 行：这里的反向传播释放了这张图",
        "**运行时会发生什么：** 抛出 `RuntimeError: Trying to backward through the graph a "
        "second time (or directly access saved tensors after they have already been freed)`。",
    ]
    assert d.message not in hover
    [action, *_] = await real.actions(URI, d.range, [d])
    assert action.title == "在第 37 行分离 `fake`（detach）：那里的损失不应该反向传播进构建 `fake` 的计算图"


@pytest.mark.init(locale="zh-cn")
async def test_client_locale_is_used_when_no_setting(real: Client):
    real.open(URI, DCGAN)
    [d, _] = await real.diagnostics_of(URI, 1)
    assert d.message.startswith("对 `errG` 做反向传播时")


@pytest.mark.init(options={"locale": "en"}, locale="zh-cn")
async def test_locale_setting_beats_client_locale(real: Client):
    real.open(URI, DCGAN)
    [d, _] = await real.diagnostics_of(URI, 1)
    assert d.message == DCGAN_MESSAGE


async def test_server_lang_is_the_last_resort(real_zh_env: Client):
    real_zh_env.open(URI, DCGAN)
    [d, _] = await real_zh_env.diagnostics_of(URI, 1)
    assert d.message.startswith("对 `errG` 做反向传播时")


async def test_notebook_cell_gets_pushed_diagnostics(real: Client):
    # VS Code's client pulls only for documents in text editors: a notebook cell's
    # diagnostics are pushed, whatever the client's pull support
    cell = "vscode-notebook-cell:/work/train.ipynb#W0sZmlsZQ%3D%3D"
    text = ("import torch\nw = torch.ones(3, requires_grad=True)\nloss = (w * w).sum()\n"
            "loss.backward()\nloss.backward()\n")
    published = real.next_publish(cell, 1)
    real.open(cell, text)
    params = await asyncio.wait_for(published, 120)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in params.diagnostics] \
        == [("GG101", 4, 0)]


TWO_RULES = '''import torch


def train(model, opt, data):
    total = 0
    for x, y in data:
        model.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        loss.backward()
        total += loss
        opt.step()
    return total
'''
"""A second backward (GG101, line 10) and an accumulated loss (GG301, line 11)."""


RULE_ERROR = ("internal error: rule GG101 failed on function `train` (RuntimeError: a bug "
              "planted in GG101); its GG101 findings there are missing")


async def test_a_crashing_rule_costs_only_its_findings(broken_rule: Client):
    """GG101's builder raises (broken_rule_server.py): GG301 is still published, the
    crash is an Information diagnostic (no code) on the header of the function it cost
    the GG101 findings of, moving with it, and one window/logMessage of type Error naming
    the rule, not repeated while the next versions keep crashing the same way."""
    uri = "file:///tmp/gg-examples/two_rules.py"
    broken_rule.open(uri, TWO_RULES)
    diagnostics = await broken_rule.diagnostics_of(uri, 1)
    assert [(d.code, d.range, d.severity, d.source) for d in diagnostics] == [
        ("GG301", rng(10, 8, 10, 21), t.DiagnosticSeverity.Warning, "gradguard"),
        (None, rng(3, 0, 3, 9), t.DiagnosticSeverity.Information, "gradguard")]
    assert diagnostics[1].message == RULE_ERROR
    broken_rule.change(uri, 2, t.TextDocumentContentChangePartial(range=rng(0, 0, 0, 0),
                                                                  text="# two rules\n"))
    diagnostics = await broken_rule.diagnostics_of(uri, 2)
    assert [(d.code, d.range, d.message) for d in diagnostics] == [
        ("GG301", rng(11, 8, 11, 21), diagnostics[0].message),
        (None, rng(4, 0, 4, 9), RULE_ERROR)]
    assert [(m.type, m.message) for m in broken_rule.log_messages] == [
        (t.MessageType.Error, f"internal error in the analysis of {uri}: GG101 in train "
                              "(line 4): RuntimeError: a bug planted in GG101")]



ROOT_ERROR = ("internal error: could not analyse function `train` (AttributeError: "
              "'NoneType' object has no attribute 'segs'); its findings are missing")


async def test_a_function_that_could_not_be_analysed_is_an_information_diagnostic(
        broken_root: Client):
    """The interpreter raises on ``train`` (broken_root_server.py): ``Trainer.step``'s
    GG101 is still published, with an Information diagnostic without a code on ``def
    train`` saying its findings are missing; it follows the function when lines move
    above it (the reused result of the incremental engine), offers no quick fix or
    suppression, is logged once, and goes away when the function no longer fails."""
    uri = "file:///tmp/gg-examples/broken_root.py"
    broken_root.open(uri, BROKEN_ROOT)
    diagnostics = await broken_root.diagnostics_of(uri, 1)
    # (GG101's preferred fix, retain_graph=True, goes into the backward on the line above:
    # its hint follows it)
    assert [(d.code, d.range, d.severity, d.source) for d in diagnostics] == [
        ("GG101", rng(14, 8, 14, 23), t.DiagnosticSeverity.Error, "gradguard"),
        ("GG101", rng(13, 22, 13, 22), t.DiagnosticSeverity.Hint, "gradguard"),
        (None, rng(3, 0, 3, 9), t.DiagnosticSeverity.Information, "gradguard")]
    assert diagnostics[2].message == ROOT_ERROR
    assert diagnostics[2].related_information is None and diagnostics[2].data is None

    broken_root.change(uri, 2, t.TextDocumentContentChangePartial(range=rng(0, 0, 0, 0),
                                                                  text="# training\n"))
    diagnostics = await broken_root.diagnostics_of(uri, 2)
    assert [(d.code, d.range, d.message) for d in diagnostics] == [
        ("GG101", rng(15, 8, 15, 23), diagnostics[0].message),
        ("GG101", rng(14, 22, 14, 22), diagnostics[1].message), (None, rng(4, 0, 4, 9), ROOT_ERROR)]
    actions = await broken_root.actions(uri, rng(4, 0, 4, 9), diagnostics[2:])
    assert [a.title for a in actions] == ["Fix all GradGuard problems"]

    broken_root.change(uri, 3, t.TextDocumentContentChangePartial(range=rng(4, 4, 4, 9),
                                                                  text="fit"))
    diagnostics = await broken_root.diagnostics_of(uri, 3)
    assert [(d.code, d.range) for d in diagnostics] == [
        ("GG101", rng(8, 8, 8, 23)), ("GG101", rng(7, 22, 7, 22)),
        ("GG101", rng(15, 8, 15, 23)), ("GG101", rng(14, 22, 14, 22))]
    assert [(m.type, m.message) for m in broken_root.log_messages] == [
        (t.MessageType.Error, f"internal error in the analysis of {uri}: train (line 4): "
                              "AttributeError: 'NoneType' object has no attribute 'segs'")]
