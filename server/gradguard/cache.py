"""The result cache of ``gradguard check``: one JSON file per analysed text.

An entry holds the engine's raw :class:`~gradguard.analysis.model.FileResult` of one
text (findings with their fixes, the syntax problem, internal errors with their
places), before
selection, ``# noqa`` and configuration are applied, so that changing the
configuration never needs to invalidate anything. Entries live under
``<root>/<fingerprint>/<2 hex>/<62 hex>.json``, named by the SHA-256 of the text;
``<root>`` is ``$GRADGUARD_CACHE_DIR`` if set, else the user cache folder
(``platformdirs.user_cache_dir("gradguard")``, e.g. ``~/.cache/gradguard``), and
``<fingerprint>`` names the code that made them (:func:`code_fingerprint`): results of
another GradGuard, another libcst or another Python are never served, and opening a
cache for new code removes the folders of older code. Only what GradGuard provably
made is ever deleted, since the root may be any folder the user names: a root
without GradGuard's ``CACHEDIR.TAG`` gets no cleanup, and in one that has it, only
fingerprint folders holding GradGuard's :data:`MARKER` file (both written when
GradGuard made them; neither a symbolic link) are removed.

The folder is writable by the user, so an entry is data to check, not to trust: JSON
only (never pickle), every field's type checked, every position inside the text, every
code a known rule's, every msgid one of GradGuard's messages (:func:`_known_msgids`)
with exactly its placeholders as arguments, no control character (ESC, CR, LF, C1...)
in any text that is printed, and the entry's own record of the text hash and
fingerprint must match; only a regular file of a sane size is read, never through a symbolic link and
never waiting on a FIFO. Anything else is a miss, and the entry is rewritten. Writes go to a temporary
file renamed over the entry (atomic: concurrent workers and runs see a whole entry or
none). A cache that cannot be read or written costs only its speed-up. A
well-formed entry can still lie about what it describes (which findings, where): the
fixes that ``--fix`` and ``--diff`` write are therefore never taken from it (see
:mod:`gradguard.checker`).

Entries of the running code are never pruned one by one: an entry is a few kB, a new
GradGuard, libcst or Python (every upgrade) drops all the older code's entries at once,
and pruning by last use would cost a write per hit (atime is unreliable) plus a walk of
the folder. Deleting the root is always safe.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import stat
import string
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gradguard import __version__
from gradguard.analysis.model import (
    Edit, EngineError, FileResult, Finding, Fix, Message, Pos, Related, Span, SyntaxProblem,
)
from gradguard.fixes import split_lines

CACHE_ENV = "GRADGUARD_CACHE_DIR"
"""The environment variable that overrides the cache root folder."""

FORMAT = 4
"""Version of the entry layout; part of the fingerprint (2: internal errors are objects
with their kind, place and span, no longer strings; 3: ``deps``, and spans in them; 4:
a related location's ``backward`` flag)."""

MAX_ENTRY_BYTES = 8 * 2**20
"""Entries are read up to this size (8 MiB; real ones are a few kB); a larger file is
a miss, and a larger result is not stored."""

MARKER = "GRADGUARD-RESULTS"
"""The file GradGuard writes into each fingerprint folder it makes: only folders
holding it, as GradGuard writes it, are ever removed."""

_PACKAGE = Path(__file__).resolve().parent
_CODE_DIR = re.compile(r"[0-9a-f]{32}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
        "# This file is a cache directory tag created by gradguard.\n"
        "# For information about cache directory tags see https://bford.info/cachedir/\n")


def cache_root() -> Path:
    """The folder holding the cache: ``$GRADGUARD_CACHE_DIR`` when set and not empty,
    else the user cache folder for ``gradguard``."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    import platformdirs

    return Path(platformdirs.user_cache_dir("gradguard"))


@functools.cache
def code_fingerprint() -> str:
    """32 hex digits naming the code whose results the cache may serve: the entry
    format, GradGuard's version, the contents of every ``.py`` file of the installed
    ``gradguard`` package (so an edited checkout invalidates), the libcst
    distribution's name and version, and the Python implementation and version.
    Computed once per process (reads about 300 kB)."""
    digest = hashlib.sha256(f"{FORMAT}\0{__version__}\0{sys.implementation.cache_tag}\0"
                            f"{_libcst_distribution()}\0".encode())
    for path in sorted(_PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:32]


def _libcst_distribution() -> str:
    """The ``libcst-X.Y.Z.dist-info`` folder name beside the libcst package (without
    importing libcst or importlib.metadata, both slow), or "" when not found."""
    import importlib.util

    spec = importlib.util.find_spec("libcst")
    if spec is None or not spec.submodule_search_locations:
        return ""
    site = os.path.dirname(list(spec.submodule_search_locations)[0])
    try:
        names = os.listdir(site)
    except OSError:
        return ""
    return ",".join(sorted(n for n in names
                           if n.lower().startswith("libcst-") and n.endswith(".dist-info")))


def text_key(text: str) -> str:
    """The SHA-256 (64 hex digits) of ``text`` encoded as UTF-8 (lone surrogates kept)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class ResultCache:
    """The entries of one code fingerprint under ``folder`` (picklable: workers get a
    copy). Use :meth:`open` to make one."""

    folder: str
    fingerprint: str

    @classmethod
    def open(cls, root: Path | None = None) -> "ResultCache":
        """The cache for the running code under ``root`` (default :func:`cache_root`).
        The first time this code opens it, the folders of other code under ``root`` are
        removed (only those GradGuard made: see the module). Never raises: a root that
        cannot be made is found out, and ignored, at the first write."""
        root = cache_root() if root is None else root
        fingerprint = code_fingerprint()
        folder = root / fingerprint
        if not folder.is_dir():
            _remove_other_code(root, fingerprint)
        return cls(str(folder), fingerprint)

    def _path(self, key: str) -> str:
        return os.path.join(self.folder, key[:2], key[2:] + ".json")

    def get(self, text: str, text_of=None, path: str | None = None,
            scope: str | None = None) -> FileResult | None:
        """The cached result of ``text``, or ``None`` when there is no entry or the
        entry is unreadable, corrupt, or not this text's and this code's, or when a
        module of the user's that the analysis read (``deps``) now has another text
        (``text_of(path)`` gives its current text, None when it is gone; without
        ``text_of``, an entry with deps is a miss), or when the entry was made for the
        file at another ``path`` (the same text beside other modules imports other code;
        an entry is kept per text, the last file's) or with another ``scope`` (the
        project's files its imports may name: one added or removed since). Only a
        regular file of at most
        :data:`MAX_ENTRY_BYTES` is read (not through a symbolic link, and never waiting
        on a FIFO)."""
        key = text_key(text)
        try:
            entry = json.loads(_read_regular(self._path(key), MAX_ENTRY_BYTES))
            if (type(entry) is not dict or entry.get("gradguard") != __version__
                    or entry.get("fingerprint") != self.fingerprint
                    or entry.get("sha256") != key):
                return None
            if path is not None and entry.get("path") not in (None, path):
                return None
            if entry.get("scope", "") != (scope or ""):
                return None
            result = entry.get("result")
            deps = {}
            for dep in _Decoder.typed(result.get("deps"), list) if type(result) is dict else ():
                path, sha = (_Decoder.typed(x, str) for x in _Decoder.pair(dep))
                current = text_of(path) if text_of is not None else None
                if current is None or text_key(current) != sha:
                    return None
                deps[path] = current
            return _decode_result(result, text, deps)
        except (OSError, ValueError, TypeError, KeyError, RecursionError):
            return None

    def put(self, text: str, result: FileResult, path: str | None = None,
            scope: str | None = None) -> None:
        """Store ``result`` as the analysis of ``text`` (atomically). Results that
        :meth:`get` would refuse (a message argument that is not a str or int, a
        control character, an unknown msgid), results over :data:`MAX_ENTRY_BYTES`,
        and write errors are skipped silently."""
        key = text_key(text)
        try:
            encoded = _encode_result(result)
            deps = {path: _dep_text(path) for path, _ in result.deps}
            if any(t is None or text_key(t) != sha for (_, sha), t in zip(result.deps, deps.values())):
                return  # a module changed while it was analysed
            _decode_result(encoded, text, deps)  # (what get() would refuse)
            entry = {"gradguard": __version__, "fingerprint": self.fingerprint,
                     "sha256": key, "result": encoded}
            if path is not None:
                entry["path"] = path
            if scope:
                entry["scope"] = scope
            data = json.dumps(entry, separators=(",", ":"))
        except (TypeError, ValueError):
            return
        if len(data) > MAX_ENTRY_BYTES:  # (ASCII: json.dumps escapes the rest)
            return
        path = self._path(key)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            _create(os.path.join(os.path.dirname(self.folder), "CACHEDIR.TAG"), _TAG)
            _create(os.path.join(self.folder, MARKER), _marker_text(self.fingerprint))
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json",
                                       dir=os.path.dirname(path))
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(data)
            os.replace(tmp, path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _dep_text(path: str) -> str | None:
    """A module's text as the workspace reads it (None when it cannot be read)."""
    from gradguard.workspace import read_text

    return read_text(path)


def _marker_text(fingerprint: str) -> str:
    return (f"This folder holds results of gradguard code {fingerprint}; "
            "gradguard deletes it when other code opens the cache.\n")


def _create(path: str, text: str) -> None:
    """Write ``text`` (ASCII) to a new file at ``path``, unless something (a file, a
    folder, a symbolic link) is there already. Raises ``OSError`` if it cannot."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
    except FileExistsError:
        return
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(text)


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def _read_regular(path: str, limit: int) -> bytes:
    """The contents of the regular file at ``path``, at most ``limit`` bytes. Raises
    ``OSError`` when ``path`` is a symbolic link, not a regular file (a FIFO is never
    waited on), larger than ``limit`` bytes, or unreadable."""
    fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise OSError(f"{path} is larger than {limit} bytes")
    return data


def _made_by_gradguard(path: str, text: str) -> bool:
    """Whether ``path`` is a regular file (not a symbolic link) holding exactly ``text``."""
    try:
        return _read_regular(path, len(text)) == text.encode("ascii")
    except OSError:
        return False


def _remove_other_code(root: Path, fingerprint: str) -> None:
    """Delete the folders of other code than ``fingerprint``'s under ``root``: only if
    GradGuard tagged ``root``, and only folders GradGuard marked (see the module)."""
    if not _made_by_gradguard(os.path.join(root, "CACHEDIR.TAG"), _TAG):
        return
    try:
        names = os.listdir(root)
    except OSError:
        return
    for name in names:
        folder = os.path.join(root, name)
        if (name != fingerprint and _CODE_DIR.fullmatch(name) and not os.path.islink(folder)
                and _made_by_gradguard(os.path.join(folder, MARKER), _marker_text(name))):
            shutil.rmtree(folder, ignore_errors=True)  # (never follows symbolic links)


# Encoding: positions as [line, column], spans as [start, end], the rest as objects.

def _pos(p: Pos) -> list[int]:
    return [p.line, p.column]


def _span(s: Span) -> list:
    return [_pos(s.start), _pos(s.end)] + ([s.path] if s.path is not None else [])


def _message(m: Message) -> dict:
    for value in m.args.values():
        if type(value) not in (str, int):
            raise TypeError(f"message argument {value!r} is not a str or int")
    return {"msgid": m.msgid, "args": dict(m.args)}


def _encode_result(r: FileResult) -> dict:
    return {
        "findings": [{
            "code": f.code, "span": _span(f.span), "message": _message(f.message),
            "related": [{"span": _span(x.span), "message": _message(x.message),
                         "backward": x.backward} for x in f.related],
            "fixes": [{"title": _message(x.title), "preferred": x.preferred,
                       "applicability": x.applicability,
                       "edits": [{"span": _span(e.span), "new_text": e.new_text}
                                 for e in x.edits]} for x in f.fixes],
        } for f in r.findings],
        "syntax_error": None if r.syntax_error is None else {
            "pos": _pos(r.syntax_error.pos), "message": r.syntax_error.message},
        "errors": [{"kind": e.kind, "where": e.where, "root": e.root, "span": _span(e.span),
                    "message": e.message} for e in r.errors],
        "deps": [list(d) for d in r.deps],
    }


@functools.cache
def _known_msgids() -> frozenset[str]:
    """The msgids of GradGuard's message template (``i18n/locale/gradguard.pot``, which
    the i18n test keeps equal to the messages in the source): the only messages an
    entry may hold. Raises ``OSError`` if the template cannot be read."""
    import ast

    from gradguard.i18n import DOMAIN, LOCALE_DIR

    msgids, parts = set(), None
    for line in (LOCALE_DIR / f"{DOMAIN}.pot").read_text(encoding="utf-8").splitlines():
        if line.startswith("msgid "):
            parts = [line[len("msgid "):]]
        elif line.startswith('"') and parts is not None:  # a continued msgid
            parts.append(line)
        elif parts is not None:
            msgids.add("".join(ast.literal_eval(p) for p in parts))  # (PO quotes are Python's)
            parts = None
    return frozenset(msgids - {""})


@functools.cache
def _placeholders(msgid: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(msgid) if name)


class _Invalid(ValueError):
    """An entry that is not what :func:`_encode_result` writes for this text."""


class _Decoder:
    """Checks and rebuilds an encoded result against the text it claims to describe."""

    def __init__(self, text: str, deps: dict | None = None):
        self.lengths = [len(line.rstrip("\r\n")) for line in split_lines(text)]
        self.deps = deps or {}
        self._dep_lengths: dict = {}
        from gradguard.rules import all_rules

        self.codes = {r.code for r in all_rules()}

    @staticmethod
    def fields(value: object, *names: str) -> list:
        if type(value) is not dict or set(value) != set(names):
            raise _Invalid(f"expected an object with {names}")
        return [value[n] for n in names]

    @staticmethod
    def typed(value: object, kind: type) -> object:
        if type(value) is not kind:
            raise _Invalid(f"expected {kind.__name__}")
        return value

    @staticmethod
    def pair(value: object) -> list:
        if type(value) is not list or len(value) != 2:
            raise _Invalid("expected a pair")
        return value

    def point(self, value: object) -> Pos:
        line, column = (self.typed(n, int) for n in self.pair(value))
        if line < 1 or column < 0:
            raise _Invalid(f"position {line}:{column} is not a position")
        return Pos(line, column)

    def pos(self, value: object, path: str | None = None) -> Pos:
        lengths = self.lengths
        if path is not None:
            lengths = self._dep_lengths.get(path)
            if lengths is None:
                lengths = self._dep_lengths[path] = [
                    len(line.rstrip("\r\n")) for line in split_lines(self.deps[path])]
        pos, last = self.point(value), len(lengths)
        if pos.line > last + 1 or pos.column > (lengths[pos.line - 1]
                                                if pos.line <= last else 0):
            raise _Invalid(f"position {pos.line}:{pos.column} is outside the text")
        return pos

    def span(self, value: object, local: bool = True) -> Span:
        """A span in the text, or (unless ``local``) ``[start, end, path]`` in one of
        the modules the result read (``deps``)."""
        if type(value) is list and len(value) == 3 and not local:
            start, end, path = value
            if self.typed(path, str) not in self.deps:
                raise _Invalid("a span in a file the result did not read")
        else:
            (start, end), path = self.pair(value), None
        span = Span(self.pos(start, path), self.pos(end, path), path)
        if span.end < span.start:
            raise _Invalid("span ends before it starts")
        return span

    @staticmethod
    def shown(value: object) -> str:
        """A string that is printed: no control characters (terminal escapes, line breaks)."""
        if type(value) is not str or _CONTROL.search(value):
            raise _Invalid("expected a str without control characters")
        return value

    def message(self, value: object) -> Message:
        msgid, args = self.fields(value, "msgid", "args")
        if self.typed(msgid, str) not in _known_msgids():
            raise _Invalid("not a message of GradGuard")
        if set(self.typed(args, dict)) != _placeholders(msgid):
            raise _Invalid("the arguments are not the message's placeholders")
        for arg in args.values():
            if type(arg) is not int:
                self.shown(arg)
        return Message(msgid, args)

    def fix(self, value: object) -> Fix:
        title, preferred, applicability, edits = self.fields(
            value, "title", "preferred", "applicability", "edits")
        if applicability not in ("safe", "unsafe"):
            raise _Invalid("unknown applicability")
        return Fix(self.message(title), tuple(
            Edit(self.span(span, local=False), self.typed(new_text, str))
            for span, new_text in (self.fields(e, "span", "new_text")
                                   for e in self.typed(edits, list))),
            preferred=self.typed(preferred, bool), applicability=applicability)

    def finding(self, value: object) -> Finding:
        code, span, message, related, fixes = self.fields(
            value, "code", "span", "message", "related", "fixes")
        if code not in self.codes:
            raise _Invalid("unknown rule code")
        return Finding(code, self.span(span), self.message(message), tuple(
            Related(self.span(s, local=False), self.message(m), self.typed(b, bool))
            for s, m, b in (self.fields(r, "span", "message", "backward")
                            for r in self.typed(related, list))),
            tuple(self.fix(x) for x in self.typed(fixes, list)))

    def error(self, value: object) -> EngineError:
        kind, where, root, span, message = self.fields(
            value, "kind", "where", "root", "span", "message")
        if kind not in ("root", "rule"):
            raise _Invalid("unknown kind of internal error")
        if kind == "rule" and where not in self.codes:
            raise _Invalid("unknown rule code")
        if root is not None:
            self.shown(root)
        return EngineError(kind, self.shown(where), root, self.span(span), self.shown(message))


def _decode_result(value: object, text: str, deps: dict | None = None) -> FileResult:
    """The :class:`FileResult` encoded in ``value`` for ``text`` (``deps``: the current
    text of each module of the user's it records having read). Raises ``ValueError``
    (or ``TypeError``) when ``value`` is not exactly such an encoding."""
    d = _Decoder(text, deps)
    findings, syntax_error, errors, dep_list = d.fields(
        value, "findings", "syntax_error", "errors", "deps")
    if sorted(d.deps) != sorted(p for p, _ in (d.pair(x) for x in d.typed(dep_list, list))):
        raise _Invalid("the deps are not the ones checked")
    if syntax_error is not None:
        pos, message = d.fields(syntax_error, "pos", "message")
        # (a parser's error position may lie past the text's end: it is only printed)
        syntax_error = SyntaxProblem(d.point(pos), d.shown(message))
    return FileResult(tuple(d.finding(f) for f in d.typed(findings, list)), syntax_error,
                      tuple(d.error(e) for e in d.typed(errors, list)),
                      tuple((p, text_key(d.deps[p])) for p in sorted(d.deps)))
