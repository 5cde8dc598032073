"""A plain JSON-RPC client for ``gradguard lsp`` over stdio, for fuzzing and security tests.

pytest-lsp's client validates every message against the specification and hides the raw
wire; the fuzzer needs the opposite: send hundreds of notifications without waiting,
keep requests in flight, see every message the server sends in arrival order, notice
the moment the process exits, and read its standard error. :class:`LspProcess` does
that and nothing more (no retries, no spec checks).

Requests the server sends to the client are answered: ``workspace/configuration`` with
:attr:`LspProcess.configuration` for every item, ``workspace/applyEdit`` with
``applied: false``, and registration / progress requests with ``null``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import sys
from typing import Any, Callable

SERVER_COMMAND = [sys.executable, "-m", "gradguard", "lsp"]
TIMEOUT = 120.0
"""Seconds to wait for any one answer (generous: a loaded 2-core machine is slow, not wrong)."""


class ServerExited(RuntimeError):
    """The server process ended (or closed its output) while an answer was awaited."""


class ResponseError(RuntimeError):
    """The server answered a request with a JSON-RPC error."""


def server_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a server: this one without locale variables (messages in
    English), plus ``extra``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["PYTHONUNBUFFERED"] = "1"
    return {**env, **(extra or {})}


def client_capabilities(pull: bool = False) -> dict:
    """A modest client: UTF-16 positions, versioned push diagnostics (and pull
    diagnostics when ``pull``), markdown hover, code actions resolved by the server."""
    text_document: dict[str, Any] = {
        "synchronization": {"didSave": True, "dynamicRegistration": False},
        "publishDiagnostics": {"relatedInformation": True, "versionSupport": True,
                               "codeDescriptionSupport": True, "dataSupport": True},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {
            "valueSet": ["quickfix", "source", "source.fixAll"]}},
            "isPreferredSupport": True, "dataSupport": True},
    }
    if pull:
        text_document["diagnostic"] = {"dynamicRegistration": False}
    return {"general": {"positionEncodings": ["utf-16"]}, "textDocument": text_document,
            "workspace": {"configuration": False, "workspaceEdit": {"documentChanges": True}}}


class LspProcess:
    """One running server and the messages it sent.

    ``notifications`` holds every notification (dicts as received), in arrival order;
    ``stderr`` what the process wrote to standard error so far; ``returncode`` is set
    once it exited. Create with :meth:`start` inside a running event loop.
    """

    def __init__(self, proc: asyncio.subprocess.Process):
        self.proc = proc
        self.notifications: list[dict] = []
        self.server_requests: list[dict] = []
        self.configuration: Any = None
        self.stderr = b""
        self.sent_requests = 0
        self.answered = 0
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future] = {}
        self._watchers: list[tuple[Callable[[dict], bool], asyncio.Future]] = []
        self._closed = asyncio.get_running_loop().create_future()
        self._tasks = [asyncio.ensure_future(self._read_stdout()),
                       asyncio.ensure_future(self._read_stderr())]

    @classmethod
    async def start(cls, command: list[str] | None = None, env: dict[str, str] | None = None,
                    cwd: str | None = None) -> "LspProcess":
        """Start ``command`` (default ``python -m gradguard lsp``) with pipes."""
        proc = await asyncio.create_subprocess_exec(
            *(command or SERVER_COMMAND), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env=env or server_env(), cwd=cwd, limit=1 << 24)
        return cls(proc)

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def alive(self) -> bool:
        """Whether the process runs and its output is still open."""
        return self.proc.returncode is None and not self._closed.done()

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def stderr_text(self) -> str:
        return self.stderr.decode("utf-8", "replace")

    # ------------------------------------------------------------------ reading

    async def _read_stdout(self) -> None:
        reader = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = await reader.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                if length is None:
                    raise ValueError("a message without Content-Length")
                self._dispatch(json.loads(await reader.readexactly(length)))
        finally:
            error = ServerExited(f"the server closed its output (exit status "
                                 f"{self.proc.returncode}); stderr:\n{self.stderr_text()[-4000:]}")
            if not self._closed.done():
                self._closed.set_result(None)
            for fut in list(self._pending.values()) + [f for _, f in self._watchers]:
                if not fut.done():
                    fut.set_exception(error)

    async def _read_stderr(self) -> None:
        while True:
            chunk = await self.proc.stderr.read(65536)
            if not chunk:
                return
            self.stderr += chunk

    def _dispatch(self, msg: dict) -> None:
        if "method" not in msg:
            fut = self._pending.pop(msg.get("id"), None)
            if fut is not None and not fut.done():
                self.answered += 1
                if "error" in msg:
                    fut.set_exception(ResponseError(json.dumps(msg["error"])))
                else:
                    fut.set_result(msg.get("result"))
            return
        if "id" in msg:
            self.server_requests.append(msg)
            self._answer(msg)
            return
        self.notifications.append(msg)
        for watcher in list(self._watchers):
            if not watcher[1].done() and watcher[0](msg):
                watcher[1].set_result(msg)
                self._watchers.remove(watcher)

    def _answer(self, msg: dict) -> None:
        method, params = msg["method"], msg.get("params") or {}
        if method == "workspace/configuration":
            result: Any = [self.configuration for _ in params.get("items", [])]
        elif method == "workspace/applyEdit":
            result = {"applied": False}
        else:  # client/registerCapability, window/workDoneProgress/create, refreshes
            result = None
        self._write({"jsonrpc": "2.0", "id": msg["id"], "result": result})

    # ------------------------------------------------------------------ writing

    def _write(self, msg: dict) -> None:
        if self.proc.stdin.is_closing():
            raise ServerExited("the server's input is closed")
        body = json.dumps(msg, ensure_ascii=False).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: Any) -> None:
        """Send a notification (does not wait for anything)."""
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any) -> asyncio.Future:
        """Send a request; the returned future resolves to its result (raises
        :class:`ResponseError` for an error answer, :class:`ServerExited` if none can come)."""
        rid = next(self._ids)
        fut = asyncio.get_running_loop().create_future()
        if not self.alive:
            fut.set_exception(ServerExited(f"the server is not running; stderr:\n"
                                           f"{self.stderr_text()[-4000:]}"))
            return fut
        self._pending[rid] = fut
        self.sent_requests += 1
        self._write({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return fut

    async def call(self, method: str, params: Any, timeout: float = TIMEOUT) -> Any:
        """Send a request and wait for its result."""
        fut = self.request(method, params)
        await self.drain()
        return await asyncio.wait_for(fut, timeout)

    async def drain(self) -> None:
        """Wait until what was written has been handed to the pipe."""
        try:
            await self.proc.stdin.drain()
        except (ConnectionError, BrokenPipeError) as e:
            raise ServerExited(f"cannot write to the server: {e}; stderr:\n"
                               f"{self.stderr_text()[-4000:]}") from e

    def next_notification(self, predicate: Callable[[dict], bool], since: int = 0
                          ) -> asyncio.Future:
        """A future for the first notification (from index ``since`` of
        :attr:`notifications` on, including future ones) that ``predicate`` accepts."""
        fut = asyncio.get_running_loop().create_future()
        for msg in self.notifications[since:]:
            if predicate(msg):
                fut.set_result(msg)
                return fut
        if not self.alive:
            fut.set_exception(ServerExited("the server is not running; stderr:\n"
                                           + self.stderr_text()[-4000:]))
            return fut
        self._watchers.append((predicate, fut))
        return fut

    # ------------------------------------------------------------------ session

    async def initialize(self, init_options: Any = None, pull: bool = False,
                         root_uri: str | None = None) -> dict:
        """The ``initialize`` / ``initialized`` handshake; returns the server's result."""
        result = await self.call("initialize", {
            "processId": os.getpid(), "rootUri": root_uri, "capabilities":
            client_capabilities(pull), "initializationOptions": init_options,
            "clientInfo": {"name": "gradguard-robustness"},
            "workspaceFolders": [{"uri": root_uri, "name": "root"}] if root_uri else None})
        self.notify("initialized", {})
        await self.drain()
        return result

    async def shutdown(self, timeout: float = TIMEOUT) -> int:
        """``shutdown`` then ``exit``; waits for the process and returns its exit status."""
        await self.call("shutdown", None, timeout)
        self.notify("exit", None)
        await self.drain()
        return await self.wait(timeout)

    async def wait(self, timeout: float = TIMEOUT) -> int:
        """Wait for the process to exit (and its output to be read); its exit status."""
        code = await asyncio.wait_for(self.proc.wait(), timeout)
        await asyncio.wait_for(asyncio.gather(*self._tasks, return_exceptions=True), timeout)
        return code

    async def kill(self) -> None:
        """End the process (if it still runs) and wait for it."""
        if self.proc.returncode is None:
            self.proc.kill()
        await self.wait()
