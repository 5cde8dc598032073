"""The server's mechanics against a scripted engine (``fake_server.py``): sync,
versions, push and pull, broken buffers, code actions, hover, commands, concurrency."""

from __future__ import annotations

import pytest
from lsprotocol import types as t

from conftest import Client, apply_text_edits, encoding_of, text_edits

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
    assert d.message == "`loss` is backwarded twice"
    assert d.code_description.href == "https://gradguard.dev/rules/GG101"
    [related] = d.related_information
    assert (related.location.uri, related.location.range, related.message) == (
        URI, rng(0, 0, 0, 4), "graph built here")
    assert d.data == {"version": 1, "fixes": [
        {"title": "Call safe() instead", "preferred": True,
         "edits": [{"range": [2, 5, 2, 9], "newText": "safe"}]},
        {"title": "Retain the graph (slow)", "preferred": False,
         "edits": [{"range": [2, 10, 2, 10], "newText": "retain_graph=True"}]},
    ]}

