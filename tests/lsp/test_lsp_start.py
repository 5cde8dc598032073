"""What ``gradguard lsp`` loads before it answers ``initialize``: pygls, lsprotocol and the
server, never the engine (libcst alone costs about as much as the rest of the start),
Babel or torch. The engine is imported when the first document is analysed."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from lsp_client import server_config

NOT_BEFORE_INITIALIZE = {"libcst", "gradguard.analysis.engine", "gradguard.analysis.interp",
                         "babel", "torch", "numpy"}


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def test_initialize_loads_no_engine(tmp_path):
    """``-X importtime`` lists every module the process imported: a session of
    ``initialize``, ``shutdown`` and ``exit`` imports none of the engine's."""
    session = b"".join(_frame(m) for m in [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"}])
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "gradguard", "lsp"],
                          input=session, capture_output=True, cwd=tmp_path, timeout=120,
                          env=server_config([]).server_env)
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    answers = {m["id"]: m for m in map(json.loads, re.split(rb"Content-Length: \d+\r\n"
                                                           rb"(?:[^\r\n]+\r\n)*\r\n",
                                                           proc.stdout)[1:])}
    assert answers[1]["result"]["serverInfo"]["name"] == "gradguard"
    imported = set(re.findall(r"^import time:\s*\d+ \|\s*\d+ \|\s*(\S+)$",
                              proc.stderr.decode(), re.M))
    assert {"pygls.protocol", "gradguard.lsp.documents"} <= imported  # the list is read right
    assert imported & NOT_BEFORE_INITIALIZE == set()
