"""Edit fuzzing of the real server over stdio (see edit_fuzz.py for what is sent and
checked), plus hostile documents and line-break lookalikes through the server.

The fuzz test is deterministic (hypothesis ``derandomize=True``, no example database)
and plays at least :data:`MIN_EDITS` edits; ``python bench/fuzz_lsp.py`` runs longer,
randomised profiles by hand. One server process serves every script (restarted, and
the crash recorded, if a script kills it).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, Phase, given, settings

import edit_fuzz
from edit_fuzz import Batch, Doc, Hover, Pull, Session
from lsp_wire import LspProcess

MIN_EDITS = 2000
EXAMPLES = 110
"""Scripts played in CI: with scripts of 3-6 batches of 4-12 edits this is about 2,800
edits (the test asserts at least MIN_EDITS)."""


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    session = Session(tmp_path_factory.mktemp("fuzz"))
    yield session
    session.close()


def test_fuzzed_edits(session):
    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
              phases=[Phase.explicit, Phase.generate, Phase.shrink],
              suppress_health_check=list(HealthCheck))
    @given(edit_fuzz.scripts())
    def play(script):
        session.play(script)

    before = session.stats.edits
    play()
    print(session.stats.line())
    assert session.crashes == []
    assert session.stats.edits - before >= MIN_EDITS
    assert session.stats.compared >= EXAMPLES // 4


@dataclass(frozen=True)
class DeleteLineNumber:
    """Delete line ``line`` (0-based, as LSP counts) with its line break."""

    line: int

    def changes(self, doc: Doc) -> list[dict]:
        rng = {"start": {"line": self.line, "character": 0},
               "end": {"line": self.line + 1, "character": 0}}
        start, end = doc.offset(rng["start"]), doc.offset(rng["end"])
        return [doc.change(start, end, "")]


CHAR_RNN = edit_fuzz.SCRIPTS[[p.name for p in edit_fuzz.EXAMPLES].index("char_rnn.py")]


@pytest.mark.parametrize("char", edit_fuzz.LOOKALIKES,
                         ids=[f"U+{ord(c):04X}" for c in edit_fuzz.LOOKALIKES])
def test_line_break_lookalike_keeps_the_document_in_sync(session, char):
    """pygls 2.1's TextDocument cut lines with str.splitlines: after a form feed the
    client's deletion of `loss.backward()` removed the line above it on the server, which
    kept reporting GG102 (lsp/documents.py LspTextDocument cuts at \\r\\n, \\r, \\n)."""
    text = f"# page{char}break\n" + CHAR_RNN
    backward = text.split("\n").index("            loss.backward()")
    session.play_text(text, [Batch((DeleteLineNumber(backward),), True, (Hover(0, 0),),
                                   False)])


HOSTILE = {
    "empty": "",
    "byte-order mark only": "\ufeff",
    "NUL byte": "x = 1\x00\n" + CHAR_RNN,
    "1000-deep expression": CHAR_RNN + "DEEP = " + " + ".join(["a"] * 1000) + "\n",
    "1000-deep blocks": "".join("    " * i + "if x:\n" for i in range(1000)) + "    " * 1000
                        + "pass\n",
    "200,000-character line": "# " + "\U0001F600" * 100_000 + "\n" + CHAR_RNN,
    "lone CR line breaks": CHAR_RNN.replace("\n", "\r"),
    "Python 2": 'print "x"\n' + CHAR_RNN,
}


@pytest.mark.parametrize("name", HOSTILE, ids=list(HOSTILE))
def test_hostile_document(session, name):
    """Opened as is, then hover and pull at the start and past the end: answers, the
    diagnostics of version 1 inside the text, equal to the CLI's when it parses."""
    session.play_text(HOSTILE[name], [Batch((), True, (Hover(0, 0), Hover(1100, 300), Pull()),
                                            False)])


def test_parser_crash_does_not_kill_the_server(tmp_path):
    """1,300 nested brackets once killed the server (libcst's native parser overflowed
    the C stack in the analysis thread): the editor lost every diagnostic."""
    own = Session(tmp_path)
    try:
        own.play_text("x = " + "(" * 1300 + "1" + ")" * 1300 + "\n" + CHAR_RNN,
                      [Batch((), True, (Hover(0, 0),), False)])
        assert own.crashes == [] and own.server.alive
    finally:
        own.close()


def test_client_disconnect_mid_analysis_ends_the_server(tmp_path):
    """The client's end of the pipe closes (no shutdown, no exit) while a 2,900-line
    document is being analysed: the server exits, status 0, without a traceback."""
    async def run():
        server = await LspProcess.start(cwd=str(tmp_path))
        try:
            await server.initialize({"debounceMs": 0})
            server.notify("textDocument/didOpen", {"textDocument": {
                "uri": (tmp_path / "big.py").as_uri(), "languageId": "python", "version": 1,
                "text": "".join(edit_fuzz.SCRIPTS) * 20}})
            await server.drain()
            server.proc.stdin.close()
            return await server.wait(), server.stderr_text()
        finally:
            await server.kill()

    code, stderr = asyncio.run(run())
    assert (code, stderr) == (0, "")
