"""Finding, reading and writing the Python files a run checks.

Walking yields ``*.py`` files and Jupyter notebooks (``*.ipynb``), and skips
version-control folders, virtual environments (any folder holding a ``pyvenv.cfg``, plus
the names in :data:`gradguard.config.DEFAULT_EXCLUDE`), what the configuration excludes
and what ``.gitignore`` files ignore (those inside the walked folders, and those of its
parents up to the enclosing git repository's root). Files named explicitly are always
checked. Problems (a missing path, a symbolic link loop, a folder that cannot be listed)
are reported and the walk goes on.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import tempfile
import tokenize
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator

import pathspec

from gradguard.analysis.model import Message, Pos
from gradguard.config import Settings, is_excluded
from gradguard.rules import N_

if TYPE_CHECKING:
    from gradguard.notebooks import CellMap

SUFFIXES = (".py", ".ipynb")
"""The files a folder walk checks: Python files and Jupyter notebooks."""


@dataclass(frozen=True)
class Problem:
    """Why a file could not be checked (or a path could not be walked), or why part of
    it was not (an internal error of the engine in one function: see
    :attr:`gradguard.checker.FileReport.errors`).

    ``path`` is absolute; ``pos`` (1-based line, 0-based column) is set when the
    problem has a place in the file, and ``end`` when that place is a range (the header
    of the function an engine error is about); ``message`` is the translatable text
    after the location (e.g. "syntax error: ..."). ``internal`` marks a bug in GradGuard;
    ``syntax`` a text that does not parse. In a notebook, ``cells`` is set when ``pos`` is
    in the program of its code cells (not in the file's JSON text).
    """

    path: str
    pos: Pos | None
    message: Message
    internal: bool = False
    end: Pos | None = None
    syntax: bool = False
    cells: "CellMap | None" = None


@dataclass(frozen=True)
class Source:
    """A decoded source file: ``text`` (line endings as in the file, no byte-order
    mark) and the ``encoding`` to write it back with (``utf-8-sig`` keeps a BOM)."""

    text: str
    encoding: str


class DecodeError(Exception):
    """The bytes are not text in the encoding they declare, or declare an unknown one.
    ``str(error)`` says why (Python's own words)."""


def decode_source(data: bytes) -> Source:
    """Decode Python source bytes as Python does (PEP 263): a UTF-8 byte-order mark,
    else a ``# -*- coding: ... -*-`` cookie on line 1 or 2, else UTF-8. Line endings
    are kept. Raises :class:`DecodeError`."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:  # an unknown codec, or non-UTF-8 bytes without a cookie
        raise DecodeError(_utf8_problem(data) or e.msg) from e
    try:
        return Source(data.decode(encoding), encoding)
    except UnicodeDecodeError as e:
        raise DecodeError(str(e)) from e


def _utf8_problem(data: bytes) -> str | None:
    """Why ``data`` is not UTF-8 (Python's words, with the byte position), or None."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return str(e)
    return None


def read_source(path: str | os.PathLike) -> Source:
    """Read and decode the file at ``path``. Raises ``OSError`` (also for something that
    is not a regular file: a FIFO would block the read) or :class:`DecodeError`."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        return decode_source(f.read())


def write_atomic(path: str | os.PathLike, source: Source) -> None:
    """Replace the file at ``path`` with ``source`` atomically: write a temporary file
    in the same folder, copy the old file's permission bits, then ``os.replace`` it
    over the original. Readers see the old or the new content, never a mix. Raises
    ``OSError`` or ``UnicodeEncodeError`` (then the original is untouched)."""
    data = source.text.encode(source.encoding)
    directory = os.path.dirname(os.path.abspath(path))
    mode = os.stat(path).st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=".gradguard-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _problem(path: str, msgid: str, **args: object) -> Problem:
    return Problem(path, None, Message(msgid, args))


class _GitIgnores:
    """The ``.gitignore`` rules in force in one folder: (base folder, spec) pairs,
    outermost first; a deeper file's verdict overrides an outer one's."""

    def __init__(self, layers: tuple[tuple[str, pathspec.GitIgnoreSpec], ...] = ()):
        self.layers = layers

    def entering(self, directory: str) -> "_GitIgnores":
        """The rules in force inside ``directory``, adding its own ``.gitignore``."""
        try:
            with open(os.path.join(directory, ".gitignore"), encoding="utf-8",
                      errors="replace") as f:
                spec = pathspec.GitIgnoreSpec.from_lines(f.read().splitlines())
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            return self
        return _GitIgnores(self.layers + ((directory, spec),))

    def ignores(self, path: str, is_dir: bool) -> bool:
        for base, spec in reversed(self.layers):
            rel = os.path.relpath(path, base).replace(os.sep, "/") + ("/" if is_dir else "")
            verdict = spec.check_file(rel).include
            if verdict is not None:
                return verdict
        return False

    @classmethod
    def above(cls, directory: str) -> "_GitIgnores":
        """The rules that ``.gitignore`` files in the parents of ``directory`` impose
        on it, up to the root of the git repository holding it (none outside a repository)."""
        parents = []
        current = os.path.dirname(directory)
        while True:
            parents.append(current)
            if os.path.exists(os.path.join(current, ".git")):
                break
            parent = os.path.dirname(current)
            if parent == current:
                return cls()
            current = parent
        rules = cls()
        for parent in reversed(parents):
            rules = rules.entering(parent)
        return rules


def discover(paths: list[str], settings_for: Callable[[str], Settings]
             ) -> Iterator[str | Problem]:
    """The Python files to check under ``paths`` (absolute paths), and the problems met.

    A path that is a file is yielded whatever its name; a folder (even an excluded
    one, when named explicitly) is walked for :data:`SUFFIXES` files (see the module
    docstring). ``settings_for(folder)`` gives the settings whose
    ``exclude`` applies in a folder (it may raise
    :class:`~gradguard.config.ConfigError`, which propagates). Each file is yielded
    once, even if reached twice; folders and files are visited in name order.
    """
    seen: set[str] = set()
    for given in paths:
        path = os.path.abspath(given)
        if os.path.isdir(path):
            st = os.stat(path)
            ignores = _GitIgnores.above(path).entering(path)
            for found in _walk(path, ignores, ((st.st_dev, st.st_ino),), settings_for):
                if isinstance(found, Problem) or found not in seen:
                    if not isinstance(found, Problem):
                        seen.add(found)
                    yield found
        elif os.path.lexists(path):
            if path not in seen:
                seen.add(path)
                yield path
        else:
            yield _problem(path, N_("error: no such file or directory"))


def _walk(directory: str, ignores: _GitIgnores, ancestors: tuple[tuple[int, int], ...],
          settings_for: Callable[[str], Settings]) -> Iterator[str | Problem]:
    try:
        with os.scandir(directory) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as e:
        yield _problem(directory, N_("error: cannot read folder: {reason}"),
                       reason=e.strerror or str(e))
        return
    settings = settings_for(directory)
    # Inside a folder that is itself excluded or ignored (walked because it was named
    # explicitly), the patterns that matched it would match everything: skip them.
    check_excludes = not is_excluded(settings, directory, True)
    check_ignores = not ignores.ignores(directory, True)

    def skipped(path: str, is_dir: bool) -> bool:
        return ((check_ignores and ignores.ignores(path, is_dir))
                or (check_excludes and is_excluded(settings, path, is_dir)))

    for entry in entries:
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            if skipped(entry.path, True) or os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):
                continue
            st = os.stat(entry.path)
            key = (st.st_dev, st.st_ino)
            if key in ancestors:
                yield _problem(entry.path, N_("error: symbolic link loop, skipped"))
                continue
            yield from _walk(entry.path, ignores.entering(entry.path), ancestors + (key,),
                             settings_for)
        elif entry.name.endswith(SUFFIXES) and not skipped(entry.path, False):
            yield entry.path
