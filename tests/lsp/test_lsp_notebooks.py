"""Notebooks synced with LSP 3.17 notebook document sync (as VS Code syncs a ``.ipynb``):
the notebook analysed as one program in cell order (IPython magics held by
placeholders), diagnostics published per cell URI, related locations in other cells,
quick fixes editing the right cell, hover on a cell in English and Chinese, and the
cells analysed again after text and structure changes."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types as t

from lsp_client import TIMEOUT, Client, apply_text_edits, text_edits

pytestmark = pytest.mark.asyncio

NOTEBOOK = "file:///tmp/gg-notebooks/train.ipynb"


def cell(n: int) -> str:
    """The URI VS Code gives the ``n``-th cell (0-based) of :data:`NOTEBOOK`."""
    return f"vscode-notebook-cell:/tmp/gg-notebooks/train.ipynb#W{n}sZmlsZQ%3D%3D"


# examples/char_rnn.py's hazard over three code cells: the model is defined in the first,
# built in the second and trained in the third, whose loop carries the GRU's state from
# one chunk into the next without a detach (GG102). No cell has the hazard alone.
SETUP = '''%matplotlib inline
import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = "the quick brown fox jumps over the lazy dog. " * 8
VOCAB = sorted(set(TEXT))
STOI = {c: i for i, c in enumerate(VOCAB)}


class CharRNN(nn.Module):
    def __init__(self, vocab_size, emb=16, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab_size)

    def forward(self, tokens, state=None):
        out, state = self.rnn(self.embed(tokens), state)
        return self.head(out), state
'''
BUILD = '''model = CharRNN(len(VOCAB))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
data = torch.tensor([[STOI[c] for c in TEXT]])
seq_len = 16
'''
TRAIN = '''hidden = None
for i in range(0, data.size(1) - seq_len - 1, seq_len):
    x = data[:, i : i + seq_len]
    y = data[:, i + 1 : i + 1 + seq_len]
    logits, hidden = model(x, hidden)
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()'''
CELLS = [(cell(0), "markdown", "# A character-level GRU\n"), (cell(1), "python", SETUP),
         (cell(2), "python", BUILD), (cell(3), "python", TRAIN)]


def rng(l0, c0, l1, c1):
    return t.Range(t.Position(l0, c0), t.Position(l1, c1))


async def publishes(client: Client, uris: list[str], version: int | None = None
                    ) -> dict[str, list[t.Diagnostic]]:
    """The next publishDiagnostics of each of ``uris`` (futures made before the action)."""
    raise NotImplementedError


async def test_probe(vscode: Client):
    assert vscode.init_result.capabilities.notebook_document_sync is not None
    waits = {c: vscode.next_publish(c) for c in (cell(1), cell(2), cell(3))}
    vscode.open_notebook(NOTEBOOK, CELLS)
    got = {c: (await asyncio.wait_for(f, TIMEOUT)) for c, f in waits.items()}
    for c, p in got.items():
        print(c, p.version, p.diagnostics)
    d = got[cell(3)].diagnostics[0]
    actions = await vscode.actions(cell(3), d.range, [d])
    for a in actions:
        print(a.title, a.is_preferred, await vscode.resolved_edit(a))
    print(repr(await vscode.hover(cell(3), 7, 5)))
    assert False
