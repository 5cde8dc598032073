"""Edit fuzzing of ``gradguard lsp``: hypothesis strategies for edit scripts, and the
driver that plays one script against a running server and checks every answer.

A *script* opens one of the example training scripts (with LF, CRLF or lone-CR line
breaks) and plays *batches* of edits. An edit is chosen relative to the current text
(positions are per-mille of its length, so a script means something on any text):
insertions, deletions and replacements at any character (mid-token, mid-line-break
pairs snap to the line end as an editor's positions do; inserted text includes the
characters ``str.splitlines`` takes for line breaks), valid statement lines inserted
with the line's indentation (some add findings, some remove them), line deletion and
duplication, very long runs, whole-file replacement and line-ending conversion. A batch
is sent as one ``didChange`` per edit or as one ``didChange`` carrying all of them, never
waiting for the server; hover, codeAction and pull-diagnostic requests go out between
edits at positions that may lie past the end of the text.

Checks (:class:`Checker`), for each script: the server stays up and writes no traceback;
every request is answered without a JSON-RPC error; every ``publishDiagnostics`` carries
a version of this document, never older than the previous one, and ranges inside that
version's text (diagnostic, related locations, fix edits); code actions and pulled
diagnostics name a version and fit its text; after the last edit the server publishes
the final version, and when that text parses its diagnostics are exactly those of
``gradguard check --format json`` on the same text (code and range), they do not change
when every line break becomes ``\n``, and every fix of every finding passes
:func:`fix_checks.check_fix`.
"""

from __future__ import annotations

import ast
import asyncio
import bisect
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from hypothesis import strategies as st

from fix_checks import check_fix
from gradguard.analysis import analyze
from lsp_wire import TIMEOUT, LspProcess
from robustness_support import (EXAMPLES, LINE_BREAK, cli_in_process, json_ranges, lsp_lines,
                                range_inside, shape, utf16_len)

SCRIPTS = [p.read_text(encoding="utf-8") for p in EXAMPLES]
"""The texts scripts start from (and whole-file replacements pick from)."""

# ------------------------------------------------------------------ the text model


class Doc:
    """The client's copy of one open document and the text of every version sent."""

    def __init__(self, uri: str, text: str):
        self.uri = uri
        self.text = text
        self.version = 1
        self.texts = {1: text}

    def _starts(self) -> list[int]:
        return [0] + [m.end() for m in LINE_BREAK.finditer(self.text)]

    def position(self, offset: int) -> dict:
        """The LSP position (UTF-16) of character ``offset``; an offset inside a line
        break (between ``\\r`` and ``\\n``) is the end of that line's content."""
        starts = self._starts()
        line = bisect.bisect_right(starts, offset) - 1
        content = lsp_lines(self.text)[line]
        column = min(offset - starts[line], len(content))
        return {"line": line, "character": utf16_len(content[:column])}

    def offset(self, pos: dict) -> int:
        """Inverse of :meth:`position` (for positions it produced)."""
        starts = self._starts()
        content = lsp_lines(self.text)[pos["line"]]
        units = column = 0
        while units < pos["character"]:
            units += utf16_len(content[column])
            column += 1
        return starts[pos["line"]] + column

    def line_bounds(self, offset: int) -> tuple[int, int, int]:
        """Start of the line holding ``offset``, end of its content, start of the next
        line (or the end of the text)."""
        starts = self._starts()
        line = bisect.bisect_right(starts, offset) - 1
        content = lsp_lines(self.text)[line]
        nxt = starts[line + 1] if line + 1 < len(starts) else len(self.text)
        return starts[line], starts[line] + len(content), nxt

    def newline(self) -> str:
        m = LINE_BREAK.search(self.text)
        return m.group() if m else "\n"

    def change(self, start: int, end: int, new: str) -> dict:
        """Replace characters ``[start, end)`` (snapped as :meth:`position` snaps) by
        ``new``; returns the LSP change event."""
        rng = {"start": self.position(start), "end": self.position(max(start, end))}
        a, b = self.offset(rng["start"]), self.offset(rng["end"])
        self.text = self.text[:a] + new + self.text[b:]
        return {"range": rng, "text": new}

    def replace_all(self, new: str) -> dict:
        self.text = new
        return {"text": new}

    def at(self, per_mille: int) -> int:
        return per_mille * len(self.text) // 1000


# ------------------------------------------------------------------ edits

LOOKALIKES = ["\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
"""Characters ``str.splitlines`` takes for line breaks but LSP and Python do not (pygls'
own ``TextDocument`` once cut at them, and every later edit landed a line off)."""

PIECES = [
    "(", ")", "[", "]", "{", "}", "'", '"', '"""', "'''", "f'{", "}'", "\\", ":", ",", ".",
    "#", " ", "\t", "\n", "\r\n", "\r", "\n    ", "\n\t", "=", "+=", "*", "**",
    "loss", "backward", ".backward()", "detach", ".detach()", "retain_graph=True",
    "hidden", "torch.no_grad()", "lambda", "def ", "for ", "if ", "else:", "return",
    "变量", "字符串", "損失", "😀", "🎉", "𝑥", "𐐷", "e\u0301", "a\u0308\u0323", "\u200d",
    "ﬁ", "ß", "İ", "\u00a0", "\ufeff", *LOOKALIKES,
]
"""Fragments inserted into the text: brackets and quotes (unbalanced on their own),
line breaks of all three kinds and tabs, autograd words, CJK, emoji and other astral
characters (2 UTF-16 units), combining marks, characters that change under case mapping
or NFKC, a no-break space and a zero-width no-break space, and the line-break
lookalikes."""

LINES = [
    "loss.backward()", "loss.backward(retain_graph=True)", "hidden = hidden.detach()",
    "x = 1", "pass", "# 注释 😀 comment", "变量 = '字符串 🎉'", "print(loss.item())",
    "total = total + loss", "fake = fake.detach()", "with torch.no_grad():",
    "for _ in range(2):", "if True:", "return", "opt.step()", "h.detach()",
    "s = '''", "x = (", "\t",
]
"""Whole statements inserted as a line, with the indentation of the line they go before:
some add findings (a second backward), some remove them (a detach), some open a block
or a bracket that the next line does not close."""

LONG = ["x", "😀", "中", " ", "()", "a+", "\t"]
"""Pieces of very long runs (100 to 3,000 times)."""

BRACKETS = ["(", "[", "{"]
"""Pieces of deep bracket runs (10 to 2,000 times): about 1,300 open brackets once crashed
libcst's native parser, and the server with it (test_hostile_files.
test_native_parser_stack_overflow); CPython refuses more than 200."""


@dataclass(frozen=True)
class Insert:
    at: int
    text: str

    def changes(self, doc: Doc) -> list[dict]:
        return [doc.change(doc.at(self.at), doc.at(self.at), self.text)]


@dataclass(frozen=True)
class Delete:
    at: int
    length: int

    def changes(self, doc: Doc) -> list[dict]:
        start = doc.at(self.at)
        return [doc.change(start, start + self.length, "")]


@dataclass(frozen=True)
class Replace:
    at: int
    length: int
    text: str

    def changes(self, doc: Doc) -> list[dict]:
        start = doc.at(self.at)
        return [doc.change(start, start + self.length, self.text)]


@dataclass(frozen=True)
class InsertLine:
    at: int
    line: str

    def changes(self, doc: Doc) -> list[dict]:
        start, end, _ = doc.line_bounds(doc.at(self.at))
        content = doc.text[start:end]
        indent = content[:len(content) - len(content.lstrip(" \t"))]
        return [doc.change(start, start, indent + self.line + doc.newline())]


@dataclass(frozen=True)
class DeleteLine:
    at: int

    def changes(self, doc: Doc) -> list[dict]:
        start, _, nxt = doc.line_bounds(doc.at(self.at))
        return [doc.change(start, nxt, "")]


@dataclass(frozen=True)
class DuplicateLine:
    at: int

    def changes(self, doc: Doc) -> list[dict]:
        start, _, nxt = doc.line_bounds(doc.at(self.at))
        line = doc.text[start:nxt]
        if not LINE_BREAK.search(line):
            line = doc.newline() + line
            start = nxt
        return [doc.change(start, start, line)]


@dataclass(frozen=True)
class LongRun:
    at: int
    piece: str
    count: int

    def changes(self, doc: Doc) -> list[dict]:
        return [doc.change(doc.at(self.at), doc.at(self.at), self.piece * self.count)]


@dataclass(frozen=True)
class ReplaceAll:
    script: int
    newline: str

    def changes(self, doc: Doc) -> list[dict]:
        return [doc.replace_all(LINE_BREAK.sub(self.newline, SCRIPTS[self.script]))]


@dataclass(frozen=True)
class ConvertNewlines:
    newline: str

    def changes(self, doc: Doc) -> list[dict]:
        return [doc.replace_all(LINE_BREAK.sub(self.newline, doc.text))]


@dataclass(frozen=True)
class Hover:
    line: int
    character: int


@dataclass(frozen=True)
class CodeAction:
    line: int
    character: int
    lines: int
    character2: int


@dataclass(frozen=True)
class Pull:
    pass


@dataclass(frozen=True)
class Batch:
    """Edits sent without waiting; ``together``: as one didChange; ``requests[i]`` goes
    out after edit ``i``; ``settle``: wait for this version's diagnostics afterwards."""

    edits: tuple
    together: bool
    requests: tuple
    settle: bool


@dataclass(frozen=True)
class Script:
    """Open ``SCRIPTS[script]`` with ``newline`` line breaks, play ``batches``; with
    ``repair``, finish with one didChange back to the newest version that parsed (the
    changed middle between the common head and tail, as an editor's revert sends it)."""

    script: int
    newline: str
    batches: tuple
    repair: bool = False


NEWLINES = st.sampled_from(["\n", "\r\n", "\r"])
POS = st.integers(0, 1000)
REQUEST = st.one_of(
    st.builds(Hover, st.integers(0, 1100), st.integers(0, 300)),
    st.builds(CodeAction, st.integers(0, 1100), st.integers(0, 300), st.integers(0, 3),
              st.integers(0, 300)),
    st.just(Pull()),
)


def edits(pieces: Sequence[str]) -> st.SearchStrategy:
    """One edit of any kind, inserted fragments drawn from ``pieces``."""
    piece = st.one_of(st.sampled_from(pieces),
                      st.text(st.sampled_from("".join(pieces)), min_size=1, max_size=8))
    return st.one_of(
        st.builds(Insert, POS, piece),
        st.builds(Delete, POS, st.integers(1, 40)),
        st.builds(Replace, POS, st.integers(1, 12), piece),
        st.builds(InsertLine, POS, st.sampled_from(LINES)),
        st.builds(DeleteLine, POS),
        st.builds(DuplicateLine, POS),
        st.builds(LongRun, POS, st.sampled_from(LONG), st.integers(100, 3000)),
        st.builds(LongRun, POS, st.sampled_from(BRACKETS), st.integers(10, 2000)),
        st.builds(ReplaceAll, st.integers(0, len(SCRIPTS) - 1), NEWLINES),
        st.builds(ConvertNewlines, NEWLINES),
    )


@st.composite
def batches(draw, edit: st.SearchStrategy, min_edits: int, max_edits: int) -> Batch:
    chosen = draw(st.lists(edit, min_size=min_edits, max_size=max_edits))
    requests = draw(st.lists(st.one_of(st.none(), REQUEST), min_size=len(chosen),
                             max_size=len(chosen)))
    return Batch(tuple(chosen), draw(st.booleans()), tuple(requests), draw(st.booleans()))


def scripts(min_batches: int = 3, max_batches: int = 6, min_edits: int = 4,
            max_edits: int = 12) -> st.SearchStrategy[Script]:
    """Edit scripts of ``min_batches``..``max_batches`` batches of
    ``min_edits``..``max_edits`` edits each."""
    edit = edits(PIECES)
    return st.builds(Script, st.integers(0, len(SCRIPTS) - 1), NEWLINES,
                     st.lists(batches(edit, min_edits, max_edits), min_size=min_batches,
                              max_size=max_batches).map(tuple), st.booleans())


@dataclass(frozen=True)
class Revert:
    """Replace the whole changed middle of the text (between the common head and tail)
    to get back to the newest earlier version that CPython parses."""

    def changes(self, doc: Doc) -> list[dict]:
        target = next(doc.texts[v] for v in sorted(doc.texts, reverse=True)
                      if parses(doc.texts[v]))
        head = 0
        limit = min(len(doc.text), len(target))
        while head < limit and doc.text[head] == target[head]:
            head += 1
        tail = 0
        while tail < limit - head and doc.text[-1 - tail] == target[-1 - tail]:
            tail += 1
        # never cut a \r\n pair: LSP positions cannot point between them
        while head and doc.text[head - 1] == "\r":
            head -= 1
        while tail and doc.text[len(doc.text) - tail] == "\n" and \
                doc.text[len(doc.text) - tail - 1:len(doc.text) - tail] == "\r":
            tail -= 1
        return [doc.change(head, len(doc.text) - tail, target[head:len(target) - tail])]


def parses(text: str) -> bool:
    """Whether CPython's parser accepts ``text`` (a cheap test: it parses no code twice)."""
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


# ------------------------------------------------------------------ the driver


@dataclass
class Stats:
    """What the fuzzing did: edits sent, requests answered, scripts played, scripts whose
    final text parsed (so the diagnostics were compared with the CLI), fixes checked."""

    edits: int = 0
    requests: int = 0
    scripts: int = 0
    compared: int = 0
    findings_compared: int = 0
    fixes: int = 0

    def line(self) -> str:
        return (f"{self.edits} edits in {self.scripts} scripts survived; {self.requests} "
                f"requests answered; {self.compared} final texts parsed and matched the CLI "
                f"({self.findings_compared} diagnostics); {self.fixes} fixes checked")


class Session:
    """A server process kept across scripts (restarted if one script killed it), the
    folder its documents live in, and the running :class:`Stats`."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.loop = asyncio.new_event_loop()
        self.server: LspProcess | None = None
        self.stats = Stats()
        self.count = 0
        self.crashes: list[str] = []

    def run(self, coro):
        return self.loop.run_until_complete(coro)

    async def ensure_server(self) -> LspProcess:
        if self.server is None or not self.server.alive:
            if self.server is not None:
                self.crashes.append(self.server.stderr_text()[-4000:])
                await self.server.kill()
            self.server = await LspProcess.start(cwd=str(self.folder))
            await self.server.initialize({"debounceMs": 0}, root_uri=self.folder.as_uri())
        return self.server

    def play(self, script: Script) -> None:
        """Play ``script`` against the server and check everything (raises
        ``AssertionError`` with the text involved on the first violation)."""
        batches = script.batches
        if script.repair:
            batches += (Batch((Revert(),), True, (), False),)
        self.play_text(LINE_BREAK.sub(script.newline, SCRIPTS[script.script]), batches)

    def play_text(self, text: str, batches: Sequence[Batch]) -> None:
        """Open a document holding ``text``, play ``batches`` on it, check, close it."""
        self.run(self._play(text, batches))

    async def _play(self, text: str, batches: Sequence[Batch]) -> None:
        server = await self.ensure_server()
        self.count += 1
        path = self.folder / f"doc{self.count}" / "train.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        doc = Doc(path.as_uri(), text)
        checker = Checker(server, doc, since=len(server.notifications))
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": doc.uri, "languageId": "python", "version": 1, "text": text}})
        try:
            for batch in batches:
                await self._batch(server, doc, batch, checker)
                if batch.settle:
                    await checker.settled()
            await checker.finish(path, self.stats)
        finally:
            if server.alive:
                server.notify("textDocument/didClose", {"textDocument": {"uri": doc.uri}})
                await server.drain()
        self.stats.scripts += 1
        self.stats.edits += sum(len(b.edits) for b in batches)

    async def _batch(self, server: LspProcess, doc: Doc, batch: Batch, checker: "Checker"
                     ) -> None:
        pending = []
        requests = list(batch.requests) + [None] * (len(batch.edits) - len(batch.requests))
        for edit, request in zip(batch.edits, requests):
            pending += edit.changes(doc)
            if not batch.together:
                self._send(server, doc, pending)
                pending = []
            if request is not None:
                checker.request(request)
        if pending:
            self._send(server, doc, pending)
        for request in requests[len(batch.edits):]:
            if request is not None:
                checker.request(request)
        await server.drain()

    @staticmethod
    def _send(server: LspProcess, doc: Doc, changes: list[dict]) -> None:
        doc.version += 1
        doc.texts[doc.version] = doc.text
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": doc.uri, "version": doc.version},
            "contentChanges": changes})

    def close(self) -> None:
        async def stop():
            if self.server is not None and self.server.alive:
                code = await self.server.shutdown()
                assert code == 0, self.server.stderr_text()[-4000:]
            elif self.server is not None:
                await self.server.kill()
        try:
            self.run(stop())
        finally:
            self.loop.close()


class Checker:
    """Checks one script's traffic (see the module docstring)."""

    def __init__(self, server: LspProcess, doc: Doc, since: int):
        self.server = server
        self.doc = doc
        self.since = since
        self.stderr_since = len(server.stderr_text())  # what earlier scripts logged is theirs
        self.requests: list[tuple[object, int, asyncio.Future]] = []
        self.answered = 0

    def request(self, request) -> None:
        doc, ident = self.doc, {"uri": self.doc.uri}
        lines = len(lsp_lines(doc.text))
        if isinstance(request, Hover):
            fut = self.server.request("textDocument/hover", {
                "textDocument": ident,
                "position": {"line": request.line * (lines + 3) // 1000,
                             "character": request.character}})
        elif isinstance(request, CodeAction):
            line = request.line * (lines + 3) // 1000
            fut = self.server.request("textDocument/codeAction", {
                "textDocument": ident, "range": {
                    "start": {"line": line, "character": request.character},
                    "end": {"line": line + request.lines, "character": request.character2}},
                "context": {"diagnostics": []}})
        else:
            fut = self.server.request("textDocument/diagnostic", {"textDocument": ident})
        self.requests.append((request, doc.version, fut))

    def fail(self, what: str, version: int | None = None) -> AssertionError:
        text = self.doc.texts.get(version if version is not None else self.doc.version)
        logged = self.server.stderr_text()[self.stderr_since:]
        return AssertionError(f"{what}\n--- text of version {version}: {text!r}\n--- "
                              f"server stderr:\n{logged[-3000:]}")

    def check_ranges(self, version: int, ranges, what: str) -> None:
        if version not in self.doc.texts:
            raise self.fail(f"{what} names version {version!r}, which was never sent")
        lines = lsp_lines(self.doc.texts[version])
        for rng in ranges:
            if not range_inside(lines, rng):
                raise self.fail(f"{what}: range {rng} lies outside the text", version)

    def check_diagnostics(self, version: int, diagnostics: list[dict], what: str) -> None:
        for d in diagnostics:
            if not (d.get("message") and d.get("code") and d.get("source") == "gradguard"):
                raise self.fail(f"{what}: incomplete diagnostic {d}", version)
            data = d.get("data") or {}
            if data.get("version") != version:
                raise self.fail(f"{what}: diagnostic data names version {data.get('version')}",
                                version)
            ranges = [d["range"]] + [r["location"]["range"]
                                     for r in d.get("relatedInformation") or []]
            ranges += [{"start": {"line": e["range"][0], "character": e["range"][1]},
                        "end": {"line": e["range"][2], "character": e["range"][3]}}
                       for fix in data.get("fixes", []) for e in fix["edits"]]
            self.check_ranges(version, ranges, what)

    def publishes(self) -> list[dict]:
        return [n["params"] for n in self.server.notifications[self.since:]
                if n["method"] == "textDocument/publishDiagnostics"
                and n["params"]["uri"] == self.doc.uri]

    def check_notifications(self) -> None:
        last = 0
        for params in self.publishes():
            version = params.get("version")
            if not isinstance(version, int) or version < last:
                raise self.fail(f"publishDiagnostics with version {version!r} after {last}")
            last = version
            self.check_diagnostics(version, params["diagnostics"], "publishDiagnostics")
        for n in self.server.notifications[self.since:]:
            if n["method"] in ("window/logMessage", "window/showMessage") and \
                    n["params"].get("type") == 1:
                raise self.fail(f"the server reported an error: {n['params']['message']}")
        logged = self.server.stderr_text()[self.stderr_since:]
        if "Traceback" in logged or "ERROR:" in logged:
            raise self.fail("the server logged an error")

    async def answers(self) -> None:
        """Wait for every request's answer and check it."""
        for request, version, fut in self.requests:
            try:
                result = await asyncio.wait_for(fut, TIMEOUT)
            except Exception as e:
                raise self.fail(f"{request} (sent at version {version}): {e!r}", version) from e
            self.check_answer(request, version, result)
            self.answered += 1
        self.requests = []

    def check_answer(self, request, version: int, result) -> None:
        if isinstance(request, Hover):
            if result is not None and not result["contents"]["value"].strip():
                raise self.fail(f"{request}: empty hover", version)
            return
        if isinstance(request, CodeAction):
            for action in result or []:
                data = action.get("data") or {}
                if data.get("version", version) != version:
                    raise self.fail(f"{request}: action for another version {data}", version)
                edits = [e for dc in (action.get("edit") or {}).get("documentChanges", [])
                         for e in dc["edits"]]
                self.check_ranges(data.get("version", version), [e["range"] for e in edits],
                                  f"code action {action['title']!r}")
            return
        if result.get("kind") == "full":
            for d in result["items"]:
                v = (d.get("data") or {}).get("version")
                if not isinstance(v, int) or v < version:
                    raise self.fail(f"pulled diagnostic of version {v!r}, requested at "
                                    f"{version}", version)
                self.check_diagnostics(v, [d], "pulled diagnostics")

    async def settled(self) -> dict:
        """Wait for the diagnostics of the current version; check all traffic so far."""
        version, uri = self.doc.version, self.doc.uri
        fut = self.server.next_notification(
            lambda n: n["method"] == "textDocument/publishDiagnostics"
            and n["params"]["uri"] == uri and n["params"].get("version") == version,
            since=self.since)
        try:
            published = await asyncio.wait_for(fut, TIMEOUT)
        except Exception as e:
            raise self.fail(f"no diagnostics for the current version {version}: {e!r}") from e
        await self.answers()
        self.check_notifications()
        return published["params"]

    async def finish(self, path: Path, stats: Stats) -> None:
        """Settle, then compare the final diagnostics with the CLI's on the same text."""
        final = await self.settled()
        pulled = await self.server.call("textDocument/diagnostic",
                                        {"textDocument": {"uri": self.doc.uri}})
        stats.requests += self.answered + 1
        text, version = self.doc.text, self.doc.version
        if {(d["code"], _tuple(d["range"])) for d in pulled["items"]} != \
                {(d["code"], _tuple(d["range"])) for d in final["diagnostics"]}:
            raise self.fail("pulled and pushed diagnostics of the final version differ", version)
        # a Hint marks where a finding's preferred fix edits, and points back to the finding
        published = {(d["code"], _tuple(d["range"])) for d in final["diagnostics"]
                     if d.get("severity") != HINT}
        for d in final["diagnostics"]:
            if d.get("severity") == HINT and (d["code"], _tuple(
                    d["relatedInformation"][0]["location"]["range"])) not in published:
                raise self.fail(f"a fix-site hint points to no finding: {d}", version)
        result = analyze(text)
        if result.syntax_error is not None:
            return  # the server carries its last good findings; the CLI reports the error
        if shape(result) != shape(analyze(LINE_BREAK.sub("\n", text))):
            raise self.fail("the findings change when the line breaks become \\n", version)
        path.write_bytes(text.encode("utf-8"))
        code, out, err = cli_in_process("check", "--format", "json", "-j", "1", str(path))
        report = json.loads(out)
        expected = json_ranges(text, report)
        if published != expected:
            raise self.fail(f"final diagnostics differ from the CLI's:\n server: "
                            f"{sorted(published)}\n cli:    {sorted(expected)}", version)
        stats.compared += 1
        stats.findings_compared += len(expected)
        for finding in result.findings:
            for fix in finding.fixes:
                check_fix(text, finding, fix)
                stats.fixes += 1
        os.unlink(path)


HINT = 4  # DiagnosticSeverity.Hint


def _tuple(rng: dict) -> tuple[int, int, int, int]:
    return (rng["start"]["line"], rng["start"]["character"], rng["end"]["line"],
            rng["end"]["character"])
