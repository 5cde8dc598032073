"""Notebooks synced with LSP 3.17 notebook document sync (as VS Code syncs a ``.ipynb``):
the notebook analysed as one program in cell order (IPython magics held by
placeholders), diagnostics published per cell URI (an empty list for a cell without
findings), related locations and fix edits in other cells, quick fixes editing the
right cell, hover on a cell in English and Chinese, and the notebook analysed again
after text and structure changes."""

from __future__ import annotations

import asyncio
import json
import pathlib

import pytest
from lsprotocol import types as t

from lsp_client import TIMEOUT, Client, apply_text_edits, text_edits

pytestmark = pytest.mark.asyncio

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
# examples/char_rnn.py's hazard over three code cells (after a markdown cell): the model
# is defined in the first (after `%matplotlib inline`), built in the second and trained
# in the third, whose loop carries the GRU's state into the next chunk without a detach
# (GG102). No cell has the hazard alone.
[INTRO, SETUP, BUILD, TRAIN] = ["".join(c["source"]) for c in json.loads(
    (EXAMPLES / "char_rnn.ipynb").read_text(encoding="utf-8"))["cells"]]

GG102 = ("`loss` reaches the previous iteration's graph through `hidden`, which the backward "
         "on line 8 freed in that iteration")
DETACH_HIDDEN = ("Detach `hidden` after the backward on line 8, so the next iteration starts a "
                 "new graph")
RETAIN_HIDDEN = ("Silence with retain_graph=True on line 8, which only trades this error for "
                 "another: the graph of `hidden` (built on line 5, through `self.embed`, "
                 "`self.rnn`) stays in memory, but `opt.step()` on line 9 changes the parameters "
                 "it saved, so the backward on line 8 then fails with \"modified by an inplace "
                 "operation\"")
HOVER_EN = (
    "**GG102** `graph-carried-across-iterations`\n\n"
    f"**Fix:** {DETACH_HIDDEN}\n\n"
    "**Why:**\n- line 5: graph of `hidden` built here\n- line 8: this backward freed it\n\n"
    "**At run time:** Raises `RuntimeError: Trying to backward through the graph a second time "
    "(or directly access saved tensors after they have already been freed)`.\n\n"
    "**Why not retain_graph=True:** retain_graph=True on line 8 would only trade this error for "
    "another: the graph of `hidden` (built on line 5, through `self.embed`, `self.rnn`) would "
    "stay in memory, but `opt.step()` on line 9 changes the parameters it saved, so the backward "
    "on line 8 would fail with \"one of the variables needed for gradient computation has been "
    "modified by an inplace operation\".\n\n"
    "[Rule documentation](https://github.com/gradguard/gradguard/blob/main/docs/rules/GG102.md)")
HOVER_ZH = (
    "**GG102** `graph-carried-across-iterations`\n\n"
    "**修复方法：** 在第 8 行的反向传播之后分离 `hidden`（detach），让下一次迭代从一张新的计算图开始\n\n"
    "**原因：**\n- 第 5 行：`hidden` 的计算图在这里构建\n- 第 8 行：这里的反向传播释放了这张图\n\n"
    "**运行时会发生什么：** 抛出 `RuntimeError: Trying to backward through the graph a second time "
    "(or directly access saved tensors after they have already been freed)`。\n\n"
    "**为什么不用 retain_graph=True：** 在第 8 行加上 retain_graph=True 只会把这个错误换成另一个："
    "`hidden` 的计算图（在第 5 行构建，经过 `self.embed`, `self.rnn`）会留在内存里，但第 9 行的 "
    "`opt.step()` 会原地修改它保存的参数，于是第 8 行的反向传播会报 \"one of the variables needed "
    "for gradient computation has been modified by an inplace operation\"。\n\n"
    "[规则文档](https://github.com/gradguard/gradguard/blob/main/docs/rules/GG102.md)")


def uris(name: str, count: int) -> list[str]:
    """The URIs VS Code gives the cells of notebook ``name`` in /tmp/gg-notebooks."""
    return [f"vscode-notebook-cell:/tmp/gg-notebooks/{name}#W{n}sZmlsZQ%3D%3D"
            for n in range(count)]


CHAR_RNN = "file:///tmp/gg-notebooks/char_rnn.ipynb"
CELLS = uris("char_rnn.ipynb", 4)


def rng(l0, c0, l1, c1):
    return t.Range(t.Position(l0, c0), t.Position(l1, c1))


def related(d: t.Diagnostic) -> list[tuple]:
    return [(r.location.uri, r.location.range, r.message) for r in d.related_information]


async def published(client: Client, waits: dict[str, asyncio.Future]
                    ) -> dict[str, t.PublishDiagnosticsParams]:
    return {uri: await asyncio.wait_for(f, TIMEOUT) for uri, f in waits.items()}


def expect(client: Client, cells: list[str], version: int | None = None
           ) -> dict[str, asyncio.Future]:
    """Futures of the next publish of each of ``cells`` (made before the action)."""
    return {uri: client.next_publish(uri, version) for uri in cells}


async def test_the_notebook_is_one_program_with_diagnostics_per_cell(vscode: Client):
    sync = vscode.init_result.capabilities.notebook_document_sync
    assert (list(sync.notebook_selector), sync.save) == (
        [t.NotebookDocumentFilterWithNotebook(notebook="jupyter-notebook")], True)
    waits = expect(vscode, CELLS[1:])
    vscode.open_notebook(CHAR_RNN, list(zip(CELLS, ["markdown"] + ["python"] * 3,
                                            [INTRO, SETUP, BUILD, TRAIN])))
    got = await published(vscode, waits)
    # every code cell gets its diagnostics, at its version; the markdown cell none
    assert [(p.version, len(p.diagnostics)) for p in got.values()] == [(1, 0), (1, 0), (1, 1)]
    assert all(p.uri != CELLS[0] for p in vscode.published)
    [d] = got[CELLS[3]].diagnostics
    assert (d.code, d.source, d.severity, d.range, d.message) == (
        "GG102", "gradguard", t.DiagnosticSeverity.Error, rng(7, 4, 7, 19), GG102)
    assert related(d) == [(CELLS[3], rng(4, 4, 4, 37), "graph of `hidden` built here"),
                          (CELLS[3], rng(7, 4, 7, 19), "this backward freed it")]
    actions = await vscode.actions(CELLS[3], d.range, [d])
    assert [(a.title, a.is_preferred) for a in actions] == [
        (DETACH_HIDDEN, True), (RETAIN_HIDDEN, None), ("Suppress GG102 on this line", None)]
    edit = await vscode.resolved_edit(actions[0])
    assert [dc.text_document for dc in edit.document_changes] == [
        t.OptionalVersionedTextDocumentIdentifier(uri=CELLS[3], version=1)]
    [fix] = text_edits(edit, CELLS[3])
    assert fix == t.TextEdit(rng(7, 19, 7, 19), "\n    hidden = hidden.detach()")
    fixed = apply_text_edits(TRAIN, [fix])
    assert fixed.splitlines()[7:9] == ["    loss.backward()", "    hidden = hidden.detach()"]
    # the fix applied in the cell: its diagnostics go away (an empty list, its new version)
    waits = expect(vscode, [CELLS[3]], version=2)
    vscode.change_notebook(CHAR_RNN, 2, [(CELLS[3], 2, t.TextDocumentContentChangePartial(
        range=fix.range, text=fix.new_text))])
    assert list((await published(vscode, waits))[CELLS[3]].diagnostics) == []


async def test_hover_on_a_cell(vscode: Client):
    waits = expect(vscode, [CELLS[3]])
    vscode.open_notebook(CHAR_RNN, list(zip(CELLS, ["markdown"] + ["python"] * 3,
                                            [INTRO, SETUP, BUILD, TRAIN])))
    await published(vscode, waits)
    assert await vscode.hover(CELLS[3], 7, 5) == HOVER_EN
    assert await vscode.hover(CELLS[3], 7, 12) == HOVER_EN
    assert await vscode.hover(CELLS[2], 0, 2) is None  # (no finding, no explained token)


@pytest.mark.init(locale="zh-CN")
async def test_hover_on_a_cell_in_chinese(vscode: Client):
    waits = expect(vscode, [CELLS[3]])
    vscode.open_notebook(CHAR_RNN, list(zip(CELLS, ["markdown"] + ["python"] * 3,
                                            [INTRO, SETUP, BUILD, TRAIN])))
    [d] = (await published(vscode, waits))[CELLS[3]].diagnostics
    assert d.message == ("`loss` 通过 `hidden` 连到了上一次迭代的计算图，而那张图在上一次迭代中已经"
                         "被第 8 行的反向传播释放了")
    assert await vscode.hover(CELLS[3], 7, 5) == HOVER_ZH


# A GAN's two steps in two cells: the discriminator's backward (cell 3) frees the graph of
# `fake` (built in cell 2) that the generator's backward (cell 4) walks again (GG101).
GAN = "file:///tmp/gg-notebooks/gan.ipynb"
GAN_CELLS = uris("gan.ipynb", 4)
GAN_SOURCES = [
    "# A GAN step",
    "import torch\nnetG = torch.nn.Linear(2, 2)\nnetD = torch.nn.Linear(2, 1)\n"
    "z = torch.randn(4, 2)\nfake = netG(z)\n",
    "errD = netD(fake).mean()\nerrD.backward()\n",
    "%time x = 1\nerrG = -netD(fake).mean()\nerrG.backward()\n",
]
GG101 = ("`errG` is backpropagated through the graph of `fake` (built on line 5 of cell 2), "
         "which the backward on line 2 of cell 3 already freed")


def open_gan(client: Client) -> None:
    client.open_notebook(GAN, list(zip(GAN_CELLS, ["markdown"] + ["python"] * 3, GAN_SOURCES)))


async def test_locations_and_fix_edits_in_other_cells(vscode: Client):
    waits = expect(vscode, GAN_CELLS[1:])
    open_gan(vscode)
    got = await published(vscode, waits)
    assert [len(p.diagnostics) for p in list(got.values())[:2]] == [0, 0]
    [d, hint] = got[GAN_CELLS[3]].diagnostics
    assert (d.code, d.range, d.message) == ("GG101", rng(2, 0, 2, 15), GG101)
    detach = ("Detach `fake` on line 2: that loss must not backpropagate into the graph that "
              "built it")
    assert related(d) == [
        (GAN_CELLS[1], rng(4, 7, 4, 14), "graph of `fake` built here"),
        (GAN_CELLS[2], rng(1, 0, 1, 15), "this backward freed it"),
        (GAN_CELLS[3], rng(1, 13, 1, 17), "fix here: " + detach)]
    assert (hint.severity, hint.range) == (t.DiagnosticSeverity.Hint, rng(1, 13, 1, 17))
    actions = await vscode.actions(GAN_CELLS[3], d.range, [d])
    retain = ("Silence with retain_graph=True on line 2 of cell 3, which hides the bug: the graph "
              "of `fake` (built on line 5 of cell 2, through `netG`) stays in memory until the "
              "backward on line 3 runs through it a second time")
    assert [(a.title, a.is_preferred) for a in actions] == [
        (detach, True), (retain, None), ("Suppress GG101 on this line", None)]
    # the retain fix edits the cell of the first backward, at that cell's version
    edit = await vscode.resolved_edit(actions[1])
    assert [dc.text_document for dc in edit.document_changes] == [
        t.OptionalVersionedTextDocumentIdentifier(uri=GAN_CELLS[2], version=1)]
    assert text_edits(edit, GAN_CELLS[2]) == [t.TextEdit(rng(1, 14, 1, 14), "retain_graph=True")]
    assert (await vscode.hover(GAN_CELLS[3], 2, 3)).split("\n\n")[2] == (
        "**Why:**\n- line 5 of cell 2: graph of `fake` built here\n"
        "- line 2 of cell 3: this backward freed it")
    # a line added above the backward in that cell: the fix offered before is no longer
    # resolved (its edit would land a line off), the one offered now edits the new line
    waits = expect(vscode, [GAN_CELLS[3]])
    vscode.change_notebook(GAN, 2, [(GAN_CELLS[2], 2, t.TextDocumentContentChangePartial(
        range=rng(0, 0, 0, 0), text="# the discriminator's step\n"))])
    [d, _] = (await published(vscode, waits))[GAN_CELLS[3]].diagnostics
    assert (await vscode.resolved_edit(actions[1])) is None
    now = await vscode.actions(GAN_CELLS[3], d.range, [d])
    assert text_edits(await vscode.resolved_edit(now[1]), GAN_CELLS[2]) == [
        t.TextEdit(rng(2, 14, 2, 14), "retain_graph=True")]


async def test_cells_removed_and_added_analyse_the_notebook_again(vscode: Client):
    waits = expect(vscode, [GAN_CELLS[3]])
    open_gan(vscode)
    assert [d.code for d in (await published(vscode, waits))[GAN_CELLS[3]].diagnostics] == [
        "GG101", "GG101"]
    # the discriminator's cell deleted: one backward left, nothing to report; the deleted
    # cell's diagnostics are cleared
    waits = expect(vscode, [GAN_CELLS[2], GAN_CELLS[3]])
    vscode.change_notebook(GAN, 2, structure=t.NotebookDocumentCellChangeStructure(
        array=t.NotebookCellArrayChange(start=2, delete_count=1),
        did_close=[t.TextDocumentIdentifier(uri=GAN_CELLS[2])]))
    got = await published(vscode, waits)
    assert [(p.version, len(p.diagnostics)) for p in got.values()] == [(None, 0), (1, 0)]
    # inserted again after the generator's cell: the generator's backward comes first now,
    # the discriminator's (cell 4) walks the freed graph
    moved = GAN_CELLS[2] + "moved"
    waits = expect(vscode, [moved])
    vscode.change_notebook(GAN, 3, structure=t.NotebookDocumentCellChangeStructure(
        array=t.NotebookCellArrayChange(start=3, delete_count=0, cells=[
            t.NotebookCell(kind=t.NotebookCellKind.Code, document=moved)]),
        did_open=[t.TextDocumentItem(uri=moved, language_id="python", version=1,
                                     text=GAN_SOURCES[2])]))
    [d] = [d for d in (await published(vscode, waits))[moved].diagnostics
           if d.severity == t.DiagnosticSeverity.Error]
    assert (d.code, d.range.start.line) == ("GG101", 1)
    assert d.message.endswith("which the backward on line 3 of cell 3 already freed")


async def test_closing_the_notebook_clears_its_cells(vscode: Client):
    waits = expect(vscode, [GAN_CELLS[3]])
    open_gan(vscode)
    await published(vscode, waits)
    waits = expect(vscode, GAN_CELLS[1:])
    vscode.notebook_document_did_close(t.DidCloseNotebookDocumentParams(
        notebook_document=t.NotebookDocumentIdentifier(uri=GAN),
        cell_text_documents=[t.TextDocumentIdentifier(uri=u) for u in GAN_CELLS]))
    assert [len(p.diagnostics) for p in (await published(vscode, waits)).values()] == [0, 0, 0]


async def test_a_cell_of_a_synced_notebook_is_not_analysed_alone(vscode: Client):
    waits = expect(vscode, [CELLS[3]])
    vscode.open_notebook(CHAR_RNN, list(zip(CELLS, ["markdown"] + ["python"] * 3,
                                            [INTRO, SETUP, BUILD, TRAIN])))
    await published(vscode, waits)
    # a client that also text-syncs the cell: alone it has no finding, and it is not
    # analysed alone (its next diagnostics come from the notebook's analysis)
    waits = expect(vscode, [CELLS[3]])
    vscode.open(CELLS[3], TRAIN, version=1)
    vscode.change_notebook(CHAR_RNN, 2, [(CELLS[2], 2, t.TextDocumentContentChangePartial(
        range=rng(0, 0, 0, 0), text="# build\n"))])
    assert [d.code for d in (await published(vscode, waits))[CELLS[3]].diagnostics] == ["GG102"]
