"""Security: GradGuard never imports or runs the code it checks, reads nothing outside
the checked folder (besides Python, its own package and ``pyproject.toml`` /
``.gitignore`` files above the folder), opens no network socket in stdio mode, binds
loopback by default with ``--tcp`` / ``--ws``, and has no ``eval`` / ``exec`` / ``pickle``.

Planted modules write a marker file when imported; the CLI and a language-server session
(under audit_wrapper.py, a PEP 578 audit hook recording every open, socket, process and
imported module) run over them, with hostile settings (path-like locales and
selectors), and every marker must stay absent.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import socket
import subprocess
import sys
import time
import tokenize
from pathlib import Path

import pytest

import gradguard
from gradguard.cache import cache_root
from lsp_wire import LspProcess, server_env
from robustness_support import EXAMPLES, ROOT, assert_no_traceback, clean_env, run_cli

WRAPPER = Path(__file__).with_name("audit_wrapper.py")
PACKAGE = Path(gradguard.__file__).resolve().parent
TRAIN = (EXAMPLES[0].parent / "dcgan.py").read_text(encoding="utf-8")

PLANTED = ["evil", "torch", "sibling", "helpers", "evil2", "evil3", "evil4", "conftest",
           "setup", "__init__", "sitecustomize", "usercustomize", "json", "typing", "re",
           "libcst", "pygls", "lsprotocol", "pathspec", "gradguard_plugin"]
"""Modules planted in the checked folder: those the checked file imports, files Python
or test tools run by name, and modules GradGuard itself imports (shadowing them)."""

CHECKED = '''import evil
import torch
from evil import thing
from . import sibling
from helpers import *
import gradguard_plugin
__import__("evil2")
importlib.import_module("evil3")
exec(open("evil4.py").read())
''' + TRAIN


def plant(folder: Path) -> Path:
    """Fill ``folder`` with the planted modules and the checked file; returns the folder
    where markers appear (outside ``folder``)."""
    markers = folder.parent / f"{folder.name}-markers"
    markers.mkdir()
    for name in PLANTED:
        (folder / f"{name}.py").write_text(
            f"open({str(markers / name)!r}, 'w').close()  # builtins only: runs even as re.py\n"
            "loss.backward()\nloss.backward()\n", encoding="utf-8")
    (folder / "train.py").write_text(CHECKED, encoding="utf-8")
    (folder / "pyproject.toml").write_text(
        '[tool.gradguard]\nlocale = "../../../../../tmp/evil"\n'
        'extend-exclude = ["/etc", "../.."]\n', encoding="utf-8")
    return markers


def read_audit(log: Path) -> list[list]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def _inside(path: str, roots) -> bool:
    return any(path == str(r) or path.startswith(str(r).rstrip("/") + "/") for r in roots)


def assert_contained(records: list[list], folder: Path) -> None:
    """Only Python, GradGuard's package and result cache (``$GRADGUARD_CACHE_DIR``, a
    fresh folder per test, inherited by the CLI), ``folder`` and the configuration files
    above it were opened; no module came from ``folder``; no network socket, bind,
    connect or program start (forks of ``-j`` workers aside)."""
    python = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    python |= {Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    allowed = python | {PACKAGE, folder, folder.resolve(), cache_root(), cache_root().resolve(),
                        Path("/dev/null"), Path("/dev/urandom")}
    above = {str(p / name) for p in folder.parents for name in ("pyproject.toml", ".gitignore")}
    stray = sorted({r[1] for r in records if r[0] == "open"
                    and not _inside(r[1], allowed) and r[1] not in above})
    assert stray == [], f"opened outside the checked folder: {stray}"
    own = [r for r in records if r[0] == "module" and r[2] and _inside(r[2], {folder})]
    assert own == [], f"imported from the checked folder: {own}"
    sockets = [r for r in records if r[0] == "socket"]
    assert all(r[1] == "socket.__new__" and r[2][1] == str(int(socket.AF_UNIX))
               for r in sockets), sockets
    assert [r for r in records if r[0] == "process" and r[1] != "os.fork"] == []


def test_cli_never_imports_or_runs_checked_code(tmp_path):
    """``gradguard check`` on planted modules, in process and with worker processes,
    under the audit hook and from the console script run inside the folder."""
    folder = tmp_path / "project"
    folder.mkdir()
    markers = plant(folder)
    log = tmp_path / "audit.jsonl"
    for jobs in ("1", "2"):
        proc = run_cli("check", "-j", jobs, "--locale", "../../../../etc/passwd", folder,
                       cwd=tmp_path)
        assert_no_traceback(proc.stdout, proc.stderr)
        assert proc.returncode == 1 and "train.py:" in proc.stdout
    env = {**clean_env(), "GG_AUDIT_LOG": str(log)}
    audited = subprocess.run([sys.executable, str(WRAPPER), "check", "-j", "1", str(folder)],
                             capture_output=True, text=True, env=env, cwd=tmp_path,
                             timeout=600)
    assert audited.returncode == 1, audited.stderr
    assert_contained(read_audit(log), folder)
    script = Path(sys.executable).with_name("gradguard")
    if script.exists():  # the console script does not put the current folder on sys.path
        inside = subprocess.run([str(script), "check", "."], capture_output=True, text=True,
                                env=clean_env(), cwd=folder, timeout=600)
        assert_no_traceback(inside.stdout, inside.stderr)
        assert inside.returncode == 1
    assert sorted(p.name for p in markers.iterdir()) == []


async def _session(server: LspProcess, folder: Path) -> None:
    """Open every file of ``folder`` and ask for everything a client asks for."""
    server.configuration = {"locale": "../../../../etc/passwd", "select": ["../../etc"],
                            "severity": {"../x": "error"}}
    await server.initialize({"debounceMs": 0, "locale": "/etc/shadow"},
                            root_uri=folder.as_uri())
    uris = []
    for path in sorted(folder.glob("*.py")):
        uri = path.as_uri()
        uris.append(uri)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1,
            "text": path.read_text(encoding="utf-8")}})
    for uri in uris:
        await server.call("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        await server.call("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": 1, "character": 8}})
        await server.call("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "context": {"diagnostics": []},
            "range": {"start": {"line": 0, "character": 0},
                      "end": {"line": 60, "character": 0}}})
        await server.call("workspace/executeCommand", {"command": "gradguard.fixAll",
                                                       "arguments": [uri]})
    server.notify("workspace/didChangeConfiguration", {"settings": None})
    server.notify("workspace/didChangeWatchedFiles", {"changes": [
        {"uri": (folder / "pyproject.toml").as_uri(), "type": 2}]})
    await server.call("textDocument/diagnostic", {"textDocument": {"uri": uris[-1]}})


async def _served_session(command: list[str], env: dict, cwd: Path, folder: Path) -> str:
    """Start the server with ``command`` (``env`` added to the test environment) in
    ``cwd``, run :func:`_session` on ``folder``, shut it down cleanly; its stderr."""
    server = await LspProcess.start(command, env=server_env(env), cwd=str(cwd))
    try:
        await _session(server, folder)
        assert await server.shutdown() == 0
    finally:
        await server.kill()
    return server.stderr_text()


def test_lsp_session_never_imports_code_or_reads_outside(tmp_path):
    folder = tmp_path / "project"
    folder.mkdir()
    markers = plant(folder)
    log = tmp_path / "audit.jsonl"

    stderr = asyncio.run(_served_session([sys.executable, str(WRAPPER), "lsp"],
                                         {"GG_AUDIT_LOG": str(log)}, tmp_path, folder))
    assert "Traceback" not in stderr
    assert_contained(read_audit(log), folder)
    assert sorted(p.name for p in markers.iterdir()) == []


PYTHON_PROCESS = json.loads(
    (ROOT / "client/test/fixtures/python-process.json").read_text(encoding="utf-8"))
"""The environment the VS Code client adds when it starts Python (client/src/interpreter.ts
``pythonProcessOptions``, checked against this file by the client's unit tests)."""


@pytest.mark.parametrize("cwd", ["extension", "project"])
def test_server_started_as_the_vscode_client_starts_it(tmp_path, cwd):
    """``<python> -m gradguard lsp`` with PYTHONSAFEPATH=1, run in the extension's own
    folder (as the client runs it) or even in the opened folder: no planted module runs.
    The client once ran it in the workspace folder, where `-m` put a json.py first on
    sys.path."""
    folder = tmp_path / "project"
    folder.mkdir()
    markers = plant(folder)
    (tmp_path / "extension").mkdir()

    assert asyncio.run(_served_session([sys.executable, "-m", "gradguard", "lsp"],
                                       PYTHON_PROCESS["env"], tmp_path / cwd, folder)) == ""
    assert sorted(p.name for p in markers.iterdir()) == []


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        m = re.fullmatch(r"socket:\[(\d+)\]", target)
        if m:
            inodes.add(m.group(1))
    return inodes


def _net_table(name: str) -> list[list[str]]:
    """Rows of /proc/net/<name> (tcp, tcp6, udp, udp6, raw, raw6, unix), split."""
    try:
        lines = Path(f"/proc/net/{name}").read_text().splitlines()[1:]
    except OSError:
        return []
    return [line.split() for line in lines]


def _inet_inodes() -> set[str]:
    return {row[9] for table in ("tcp", "tcp6", "udp", "udp6", "raw", "raw6")
            for row in _net_table(table) if len(row) > 9}


def _named_unix_inodes() -> set[str]:
    return {row[6] for row in _net_table("unix") if len(row) > 7}


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs Linux /proc")
def test_stdio_server_opens_no_network_socket(tmp_path):
    """A working stdio server holds no TCP/UDP/raw socket and no named Unix socket (the
    event loop's own unnamed socket pair is fine), and starts no child process."""
    (tmp_path / "train.py").write_text(TRAIN, encoding="utf-8")

    async def run():
        server = await LspProcess.start(cwd=str(tmp_path))
        try:
            await _session(server, tmp_path)
            mine = _socket_inodes(server.pid)
            children = [p for task in Path(f"/proc/{server.pid}/task").iterdir()
                        for p in (task / "children").read_text().split()]
            assert await server.shutdown() == 0
        finally:
            await server.kill()
        return mine, children

    mine, children = asyncio.run(run())
    assert mine & _inet_inodes() == set()
    assert mine & _named_unix_inodes() == set()
    assert children == []


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listeners(port: int) -> list[str]:
    """Local addresses (hex, as /proc/net/tcp{,6} writes them) listening on ``port``."""
    return [row[1].rsplit(":", 1)[0] for table in ("tcp", "tcp6") for row in _net_table(table)
            if len(row) > 3 and row[3] == "0A" and int(row[1].rsplit(":", 1)[1], 16) == port]


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("transport", ["--tcp", "--ws"])
def test_network_transports_bind_loopback_by_default(tmp_path, transport):
    port = _free_port()

    async def run():
        server = await LspProcess.start([sys.executable, "-m", "gradguard", "lsp", transport,
                                         "--port", str(port)], cwd=str(tmp_path))
        try:
            deadline = time.monotonic() + 120
            while not _listeners(port) and server.alive and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            listening = _listeners(port)
            if transport == "--tcp" and listening:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                   "params": {"processId": None, "rootUri": None,
                                              "capabilities": {}}}).encode()
                writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                await writer.drain()
                header = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 120)
                length = int(re.search(rb"Content-Length: (\d+)", header).group(1))
                answer = json.loads(await reader.readexactly(length))
                writer.close()
                assert answer["result"]["serverInfo"]["name"] == "gradguard"
            return listening, server.stderr_text()
        finally:
            await server.kill()

    listening, stderr = asyncio.run(run())
    assert listening == ["0100007F"], stderr[-2000:]


FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "breakpoint"}
FORBIDDEN_NAMES = {"pickle", "cPickle", "marshal", "shelve", "dill", "subprocess", "pty"}


def test_no_eval_exec_or_pickle_in_the_package():
    """No builtin eval/exec/compile/__import__ call, no pickle/marshal/shelve/subprocess,
    no import_module of anything but a literal name, anywhere in server/gradguard
    (tokens, so comments and strings do not count; ``x.eval()`` is a method call)."""
    found = []
    files = sorted((ROOT / "server" / "gradguard").rglob("*.py"))
    assert len(files) > 20
    for path in files:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(
            path.read_text(encoding="utf-8")).readline)
            if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE)]
        for before, tok, after in zip([None] + tokens, tokens, tokens[1:] + [None]):
            where = f"{path.relative_to(ROOT)}:{tok.start[0]}"
            dotted = before is not None and before.string in (".", "def")
            if tok.type != tokenize.NAME:
                continue
            if tok.string in FORBIDDEN_CALLS and not dotted and after and after.string == "(":
                found.append(f"{where}: {tok.string}(")
            elif tok.string in FORBIDDEN_NAMES:
                found.append(f"{where}: {tok.string}")
            elif tok.string == "import_module":
                args = tokens[tokens.index(tok) + 2] if after and after.string == "(" else None
                if args is None or args.type != tokenize.STRING:
                    found.append(f"{where}: import_module of a computed name")
    assert found == []
