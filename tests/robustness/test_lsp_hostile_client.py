"""A client that sends what no well-behaved editor sends: forged code-action data,
commands with wrong arguments, positions a billion lines away, changes to documents it
never opened, versions that go backwards. The server answers every request (an empty
answer where nothing makes sense), keeps serving the open document, and logs no
traceback."""

from __future__ import annotations

import asyncio


import edit_fuzz
from lsp_wire import LspProcess, ResponseError

TEXT = edit_fuzz.SCRIPTS[[p.name for p in edit_fuzz.EXAMPLES].index("dcgan.py")]


def _requests(uri: str) -> list[tuple[str, dict]]:
    far = {"line": 10**9, "character": 10**9}
    return [
        ("codeAction/resolve", {"title": "x", "data": {"uri": uri, "version": 5,
                                                        "suppress": {"code": "GG101",
                                                                     "line": 10**9}}}),
        ("codeAction/resolve", {"title": "x", "data": [1, 2]}),
        ("codeAction/resolve", {"title": "x", "data": {"uri": 7, "version": "5"}}),
        ("workspace/executeCommand", {"command": "gradguard.fixAll", "arguments": [123]}),
        ("workspace/executeCommand", {"command": "gradguard.fixAll", "arguments": []}),
        ("workspace/executeCommand", {"command": "gradguard.explain",
                                      "arguments": [{"a": 1}]}),
        ("textDocument/hover", {"textDocument": {"uri": uri}, "position": far}),
        ("textDocument/hover", {"textDocument": {"uri": "file:///never/opened.py"},
                                "position": {"line": 0, "character": 0}}),
        ("textDocument/diagnostic", {"textDocument": {"uri": "file:///never/opened.py"}}),
        ("textDocument/codeAction", {"textDocument": {"uri": uri}, "context": {"diagnostics": []},
                                     "range": {"start": far, "end": {"line": 0,
                                                                     "character": 0}}}),
    ]


FORGED = {
    "edits not a list": {"fix": {"edits": "garbage"}},
    "negative range": {"fix": {"edits": [{"range": [-1, 0, 0, 0], "newText": "x"}]}},
    "range an object": {"fix": {"edits": [{"range": {"0": 1, "1": 2, "2": 3, "3": 4},
                                           "newText": "x"}]}},
    "range of booleans": {"fix": {"edits": [{"range": [True, 0, 0, 0], "newText": "x"}]}},
    "newText missing": {"fix": {"edits": [{"range": [0, 0, 0, 0]}]}},
    "fix a list": {"fix": [1]},
    "suppress not an object": {"suppress": "x"},
    "suppress without a line": {"suppress": {"code": "GG101"}},
    "suppress an unknown code": {"suppress": {"code": "GG101\nimport os", "line": 0}},
    "suppress a rule name": {"suppress": {"code": "backward-through-freed-graph", "line": 0}},
    "no action at all": {"fixAll": "yes"},
}


async def _open(tmp_path) -> tuple[LspProcess, str]:
    server = await LspProcess.start(cwd=str(tmp_path))
    await server.initialize({"debounceMs": 0})
    uri = (tmp_path / "train.py").as_uri()
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 5, "text": TEXT}})
    await server.call("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    return server, uri


def test_nonsense_requests_and_notifications(tmp_path):
    async def run():
        server, uri = await _open(tmp_path)
        try:
            for method, params in _requests(uri):
                await server.call(method, params)
            for version, uri_, change in [
                (3, uri, {"text": TEXT}),  # a version older than the open one
                (3, "file:///never/opened.py", {"text": "x = 1\n"}),
                (9, uri, {"range": {"start": {"line": 500, "character": 0},
                                    "end": {"line": 600, "character": 0}}, "text": ""}),
            ]:
                server.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri_, "version": version},
                    "contentChanges": [change]})
            for method in ("textDocument/didSave", "textDocument/didClose"):
                server.notify(method, {"textDocument": {"uri": "file:///never/opened.py"}})
            report = await server.call("textDocument/diagnostic", {"textDocument": {"uri": uri}})
            # dcgan.py's GG101, and the Hint where its fix detaches `fake`
            assert [(d["code"], d["severity"]) for d in report["items"]] == [
                ("GG101", 1), ("GG101", 4)]
            assert await server.shutdown() == 0
        finally:
            await server.kill()
        return server.stderr_text()

    assert asyncio.run(run()) == ""


def test_forged_code_action_data_is_refused_quietly(tmp_path):
    """Each forged action comes back unresolved, as for a stale version: no edit, no
    error, no log (malformed data once raised in _resolve and answered -32603 with a
    traceback). A genuine action of the same document still resolves."""
    async def run():
        server, uri = await _open(tmp_path)
        try:
            answers = {}
            for name, data in FORGED.items():
                action = {"title": "x", "data": {"uri": uri, "version": 5, **data}}
                try:
                    answers[name] = await server.call("codeAction/resolve", action) == action
                except ResponseError as e:
                    answers[name] = e
            genuine = await server.call("codeAction/resolve", {"title": "x", "data": {
                "uri": uri, "version": 5,
                "suppress": {"code": "GG101", "line": TEXT.split("\n").index("import torch")}}})
            assert await server.shutdown() == 0
        finally:
            await server.kill()
        return answers, genuine, server.stderr_text()

    answers, genuine, stderr = asyncio.run(run())
    assert (answers, stderr) == (dict.fromkeys(FORGED, True), "")
    assert [e["newText"] for e in genuine["edit"]["documentChanges"][0]["edits"]] == \
        ["  # noqa: GG101"]
