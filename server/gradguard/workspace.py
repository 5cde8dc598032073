"""Which file of the user's an import names, found with jedi.

One :class:`Workspace` per project (a CLI run, a workspace folder of the language
server). :meth:`Workspace.importer` gives the :class:`FileImports` of one file, which
the engine asks (see :mod:`gradguard.analysis.imports`). jedi finds where an import's
*first* name is: ``jedi.Script(...).goto()`` on it in a one-line script (``import a``),
placed at the importing file's path (so jedi's search path is that file's), in a
``jedi.Project`` at the project root. The rest of a dotted name is Python's rule for a
package's modules, by the file system: ``a.b`` is ``b/__init__.py`` (a package first)
or ``b.py`` in the folder of package ``a`` (a relative import starts from the importing
file's package); a module that is not a package has no submodules, and the modules of a
namespace package (a folder without ``__init__.py``) are asked of jedi whole. So jedi
parses a package's ``__init__`` once, never each module of it (asking it for
``a.b.c`` made it parse all three: a quarter of a cold check). Which definition ``from
m import name`` binds is then the interpreter's business (it runs ``m``'s body, which
may import it in turn, or ``name`` is a submodule), as in Python. A look-up is kept per
folder it depends on (the package of a relative import, the folder holding an absolute
import's first name), so a package's files ask about a module once. Only imports whose
first name is a file or folder near the importing file (its folder, its parents up to
the root, the root) are looked up: ``import torch`` never costs a look-up. Only a
module in a ``.py`` file under the root, outside any installed package, counts.

jedi is used only to find files: ``Script`` (never ``Interpreter``), no code of the
user's is imported or run, its safety settings stay at their defaults, and its
environment is ``InterpreterEnvironment`` (this process's own ``sys.path``, read in
process): jedi's default environment would start a Python of the user's (a virtualenv's,
whose ``.pth`` files and ``sitecustomize`` run code) to ask it for its paths. Only files
under the project root count, so the installed packages jedi sees do not matter.
``text_of`` lets the language server hand in open buffers' unsaved text (it wins over
the disk).
"""

from __future__ import annotations

import os
import re
import time
from collections import OrderedDict
from typing import Callable, Iterable

from gradguard.analysis.imports import Target

ROOT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
_PACKAGE_DIRS = ("site-packages", "dist-packages")


def project_root(path: str) -> str:
    """The folder of the nearest ancestor of ``path`` holding a project marker
    (pyproject.toml, setup.py, setup.cfg, .git); else the folder holding the outermost
    package ``path`` is in (folders with ``__init__.py`` above it), else ``path``'s own
    folder."""
    folder = os.path.dirname(os.path.abspath(path))
    cur = folder
    while True:
        if any(os.path.exists(os.path.join(cur, m)) for m in ROOT_MARKERS):
            return cur
        parent = os.path.dirname(cur)
        if parent == cur:
            break
        cur = parent
    top = folder
    while os.path.isfile(os.path.join(top, "__init__.py")) and os.path.dirname(top) != top:
        top = os.path.dirname(top)
    return top


_TEXTS: "OrderedDict[str, tuple]" = OrderedDict()
_MAX_TEXTS = 4096
_RACY_NS = 2_000_000_000


def read_text(path: str) -> str | None:
    """The text of a module of the user's on disk, decoded as Python does (its coding
    cookie, else UTF-8); None when it cannot be read or decoded. A file is read again
    only when its size, modification time or inode changed, or when it changed in the
    last :data:`_RACY_NS` (a second write in the same clock tick keeps the time: as git
    does, such a file is read each time); the last :data:`_MAX_TEXTS` files read are
    kept (the engine asks for an imported module's text at each read of a name it
    binds)."""
    from gradguard.files import DecodeError, read_source

    try:
        st = os.stat(path)
    except OSError:
        _TEXTS.pop(path, None)
        return None
    stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
    kept = _TEXTS.get(path)
    if kept is not None and kept[0] == stamp and time.time_ns() - st.st_mtime_ns > _RACY_NS:
        _TEXTS.move_to_end(path)
        return kept[1]
    try:
        text = read_source(path).text
    except (OSError, DecodeError, UnicodeError):
        text = None
    _TEXTS[path] = (stamp, text)
    if len(_TEXTS) > _MAX_TEXTS:
        _TEXTS.popitem(last=False)
    return text


class Workspace:
    """The user's modules under ``root`` (None: each file's :func:`project_root`).

    ``text_of(path)`` gives a file's current text (default: read from disk); look-ups
    and loaded modules are kept for the workspace's life (:meth:`forget` drops them)."""

    def __init__(self, root: str | None = None,
                 text_of: Callable[[str], str | None] | None = None):
        self.root = os.path.abspath(root) if root is not None else None
        self.text_of = text_of or read_text
        self.memo: dict = {}
        self._found: dict = {}
        self._local: dict = {}
        self._projects: dict = {}
        self._environment = None
        self._tokens: dict = {}

    def importer(self, path: str) -> "FileImports":
        """The imports of the file at ``path``."""
        path = os.path.abspath(path)
        return FileImports(self, path, self.root or project_root(path))

    def has_tokens(self, file: str, tokens: tuple) -> bool:
        """Whether the text of ``file`` holds one of ``tokens`` (kept per file)."""
        key = (file, tokens)
        if key not in self._tokens:
            text = self.text_of(file) or ""
            self._tokens[key] = any(t in text for t in tokens)
        return self._tokens[key]

    def forget(self, paths: Iterable[str] | None = None) -> None:
        """Drop what was loaded and what texts hold (texts changed); jedi's look-ups stay.
        With ``paths`` (the files whose text changed): only the modules loaded from them
        or importing them, in turn or not, and modules that could not be loaded; the
        others keep their loaded bodies (and so the nodes an incremental analysis keys
        what it reuses on)."""
        if paths is None:
            self.memo.clear()
            self._tokens.clear()
            self._local.clear()
            return
        changed = set(paths)
        for key in [k for k, v in self.memo.items()
                    if v is None or k[0] in changed or any(p in changed for p, _ in v.deps)]:
            del self.memo[key]
        for key in [k for k in self._tokens if k[0] in changed]:
            del self._tokens[key]

    def _project(self, root: str):
        import jedi

        project = self._projects.get(root)
        if project is None:
            src = os.path.join(root, "src")
            # the project's folders only: not this process's sys.path (nothing of the
            # user's outside the project is looked at; installed packages never count)
            project = self._projects[root] = jedi.Project(
                root, sys_path=[root] + ([src] if os.path.isdir(src) else []))
        return project

    def find(self, path: str, root: str, module: str, level: int) -> str | None:
        """The file of the module ``<level dots><module>`` imported from ``path`` (a
        package: its ``__init__.py``), when it is the project's; else None. Kept per
        folder the look-up starts from, so the files of a package ask once."""
        anchor = self._anchor(path, root, module, level)
        if anchor is None:
            return None
        key = (anchor, root, module, level)
        if key not in self._found:
            self._found[key] = self._goto(path, root, module, level)
        return self._found[key]

    def may_be_local(self, path: str, root: str, module: str, level: int) -> bool:
        """Whether the import may name a file of the project (by the file system)."""
        return self._anchor(path, root, module, level) is not None

    def _anchor(self, path: str, root: str, module: str, level: int) -> str | None:
        """The folder a look-up of the import from ``path`` depends on: the package a
        relative import starts from, else the first folder from ``path``'s up to
        ``root`` (and ``root/src``) that holds its first name; None when there is none
        (kept per folder)."""
        key = (os.path.dirname(path), root, module.split(".")[0], level)
        if key not in self._local:
            self._local[key] = _anchor(path, root, module, level)
        return self._local[key]

    def _goto(self, path, root, module, level):
        if level and not module:  # ``from . import x``: the package itself
            init = os.path.join(_package(path, level), "__init__.py")
            return init if os.path.isfile(init) and _inside(init, root) else None
        head, _, last = module.rpartition(".")
        package = self.find(path, root, head, level) if head or level else None
        if package is not None:  # a module of a package is a file in the package's folder,
            # as Python's import system finds it (a package first): jedi located the package
            if os.path.basename(package) != "__init__.py":
                return None  # a module has no submodules
            folder = os.path.dirname(package)
        elif level:  # relative, under folders without __init__.py (namespace packages)
            folder = os.path.join(_package(path, level), *head.split(".") if head else ())
        else:  # a first name, or a module of a namespace package: jedi, whole
            return self._jedi(path, root, module, level)
        for file in (os.path.join(folder, last, "__init__.py"),
                     os.path.join(folder, last + ".py")):
            if os.path.isfile(file) and _inside(file, root) and os.path.abspath(file) != path:
                return file
        return None

    def _jedi(self, path, root, module, level):
        import jedi

        head, _, last = module.rpartition(".")
        code = f"from {'.' * level}{head} import {last}" if level else f"import {module}"
        if self._environment is None:
            _memory_only_parser_cache()
            self._environment = jedi.InterpreterEnvironment()
        try:
            found = jedi.Script(code, path=path, project=self._project(root),
                                environment=self._environment).goto(
                                    1, len(code) - 1)  # a module name: no following needed
        except Exception:  # jedi failing on one import: that import stays unknown
            return None
        for d in found:
            file = str(d.module_path) if d.module_path is not None else None
            if d.type == "module" and file is not None and file.endswith(".py") and \
                    _inside(file, root) and os.path.abspath(file) != path:
                return file
        return None


class FileImports:
    """The imports of one file, as :class:`gradguard.analysis.imports.Imports`."""

    def __init__(self, workspace: Workspace, path: str, root: str):
        self.workspace = workspace
        self.path = path
        self.root = root
        self.memo = workspace.memo

    def resolve(self, module: str, level: int) -> Target | None:
        file = self.workspace.find(self.path, self.root, module, level)
        if file is None:
            return None
        text = self.workspace.text_of(file)
        return Target(file, text) if text is not None else None

    def may_be_local(self, module: str, level: int) -> bool:
        return self.workspace.may_be_local(self.path, self.root, module, level)

    def text(self, path: str) -> str | None:
        return self.workspace.text_of(path)

    def for_path(self, path: str) -> "FileImports":
        return FileImports(self.workspace, os.path.abspath(path), self.root)

    def may_reach(self, module: str, level: int, name: str | None, tokens) -> bool:
        return any(self.workspace.has_tokens(file, tuple(tokens))
                   for file in _candidates(self.path, self.root, module, level, name))

    def scope(self, text: str) -> str:
        """The project's files that the imports of ``text`` may name (by the file system,
        as :meth:`may_reach` finds them), one per line: a result cached for ``text`` is
        stale when this changes (a module the file imports was added or removed, so an
        import that named nothing of the user's now names a module, or the reverse)."""
        files = set()
        for module, level, names in _imports_of(text):
            if not self.may_be_local(module, level):  # (kept per folder: torch, numpy...)
                continue
            for name in names or (None,):
                files.update(_candidates(self.path, self.root, module, level, name))
        return "\n".join(sorted(files))


def _memory_only_parser_cache() -> None:
    """jedi's parser (parso) keeps parsed modules as pickles in a cache folder
    (``~/.cache/jedi``) and reads them back: a pickle someone planted there would run
    their code, and the folder is outside the project. Parsed modules stay in memory
    only (parso's own in-memory cache still serves repeated look-ups)."""
    from parso import cache

    cache._load_from_file_system = lambda *args, **kwargs: None
    cache._save_to_file_system = lambda *args, **kwargs: None
    cache._remove_cache_and_update_lock = lambda *args, **kwargs: None


def _inside(file: str, root: str) -> bool:
    file = os.path.abspath(file)
    if any(part in _PACKAGE_DIRS for part in file.split(os.sep)):
        return False
    return os.path.commonpath([file, root]) == root


def _package(path: str, level: int) -> str:
    """The folder a relative import of ``level`` dots in ``path`` starts from."""
    base = os.path.dirname(path)
    for _ in range(level - 1):
        base = os.path.dirname(base)
    return base


def _anchor(path: str, root: str, module: str, level: int) -> str | None:
    """See :meth:`Workspace._anchor`."""
    if level:
        return _package(path, level)
    first = module.split(".")[0]
    if not first:
        return None

    def has(folder: str) -> bool:
        return os.path.isfile(os.path.join(folder, first + ".py")) or \
            os.path.isdir(os.path.join(folder, first))

    cur = os.path.dirname(path)
    while True:
        if has(cur):
            return cur
        if cur == root or os.path.dirname(cur) == cur or not _inside(cur, root):
            src = os.path.join(root, "src")
            return src if has(src) else None
        cur = os.path.dirname(cur)


_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*)[ \t]*([\w.]*)[ \t]+import[ \t]+\(?([\w, \t]*)"
                     r"|import[ \t]+([\w., \t]+))", re.M)


def _imports_of(text: str):
    """``(module, level, names)`` of each import statement of ``text``, read line by line
    (the modules an import may name, for :meth:`FileImports.scope`: not parsed)."""
    for m in _IMPORT.finditer(text):
        if m.group(4) is not None:
            for part in m.group(4).split(","):
                module = part.split()[0] if part.split() else ""
                if module:
                    yield module, 0, ()
        else:
            names = tuple(n.split()[0] for n in m.group(3).split(",") if n.split())
            yield m.group(2), len(m.group(1)), names


def _candidates(path: str, root: str, module: str, level: int, name: str | None):
    """The files of the project an import may name, by their names: ``a/b.py``, or
    ``a/b/name.py`` for ``from a.b import name`` (a package's ``__init__`` only when it is
    what is imported: it re-exports what its modules define, which are looked at in
    their own right), relative to
    the importing file's package for a relative import, else to its folder, the folders
    above it up to ``root``, and ``root/src``."""
    parts = [p for p in module.split(".") if p]
    if level:
        bases = [_package(path, level)]
    else:
        if not parts or _anchor(path, root, module, 0) is None:
            return
        bases, cur = [], os.path.dirname(path)
        while True:
            bases.append(cur)
            if cur == root or os.path.dirname(cur) == cur or not _inside(cur, root):
                break
            cur = os.path.dirname(cur)
        bases.append(os.path.join(root, "src"))
    for base in bases:
        target = os.path.join(base, *parts)
        for file in ([target + ".py"] if parts else []) + \
                ([os.path.join(target, name + ".py")] if name else
                 [os.path.join(target, "__init__.py")]):
            if os.path.isfile(file):
                yield file
