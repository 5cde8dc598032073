"""The user's own modules an analysed file imports, as the interpreter sees them.

Finding the file an import names is not the engine's business: a caller (the CLI, the
language server: :mod:`gradguard.workspace`, with jedi) hands :func:`analyze` an
:class:`Imports`. The engine asks it what ``from model import Net`` (or ``import
model``) names; for a module of the user's, it parses that module's text, interprets its
body once (its functions, classes and module-level names, not ``if __name__ ==
"__main__":`` code, and none of its events: that module is checked on its own), and
binds the imported names to what that run left (when the importing code first reads
them: until then an import binds a ``lazy`` value, see :class:`~gradguard.analysis.values.Lazy`).
Functions and classes of the imported
module are then interpreted inline with the caller's values, exactly like the file's
own (their names resolve in the imported module's global frame, ``G:<path>``), so what
they do to graphs (a ``forward`` that keeps ``self.hidden``, an in-place add on a saved
activation, a helper that detaches) is what they do in the file that imports them.

A loaded module is kept in the :class:`Imports`' ``memo`` by path and text, so a
project is read and run once per run (CLI) or per text (server), whatever imports it.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import libcst as cst

MAX_IMPORT_DEPTH = 6
"""Imports of imports are followed this deep. (What a module is can depend on which file
imported it first, through this limit and import cycles: a known limit.)"""


@dataclass(frozen=True)
class Target:
    """A module of the user's an import names: its file at ``path`` (a package's
    ``__init__.py``) and its ``text``. Which definition ``from m import name`` binds is
    what the module's body bound (else the package's submodule of that name), as in
    Python: the interpreter's business."""

    path: str
    text: str


class Imports(Protocol):
    """Finds the user's own modules (see :class:`gradguard.workspace.FileImports`)."""

    memo: dict

    def resolve(self, module: str, level: int) -> Target | None:
        """The module ``<level dots><module>`` (of ``import <module>`` or ``from
        <level dots><module> import ...``), when it is the user's code; None for anything
        else (installed packages, the standard library, what cannot be found)."""

    def may_be_local(self, module: str, level: int) -> bool:
        """Whether the import may name the user's code (cheap, by the file system:
        relative, or its first name is a file or folder of the project); False means
        :meth:`resolve` would answer None."""

    def text(self, path: str) -> str | None:
        """The current text of the user's module at ``path`` (None: gone)."""

    def for_path(self, path: str) -> "Imports":
        """The same finder for the imports of the module at ``path``."""

    def may_reach(self, module: str, level: int, name: str | None, tokens) -> bool:
        """Whether the import may name code of the user's whose text holds one of
        ``tokens`` (a cheap guess from file names and texts, resolving nothing: it
        decides whether a file without a backward of its own is worth analysing)."""


@functools.lru_cache(maxsize=1024)
def digest(text: str) -> str:
    """The sha256 of ``text`` (the last texts' kept: a module's text is asked for, and
    keyed by, at each read of a name it binds)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Loaded:
    """An imported module after its body ran: its global frame ``gid``, parsed
    ``module``, what its body left (global bindings and object attributes, graphs
    stripped; classes; which methods run in which module), and ``deps``, the
    ``(path, sha256)`` of it and of every module it imported in turn."""

    path: str
    text: str
    gid: str
    module: "cst.Module"
    env: dict
    classes: dict
    method_gids: dict
    submodules: dict
    inplace_ctors: dict
    deps: frozenset
    loaded: dict = field(default_factory=dict)  # gid -> Loaded, it and its imports
    exports: frozenset | None = None  # ``__all__`` when a literal list or tuple of strings
    # the bare ``torch.set_grad_enabled(False)`` its body left in force (grad mode is the
    # thread's: the importer runs without grad from then on), else None
    grad_off: object = None


def load(target: Target, imports: Imports, depth: int = 0) -> Loaded | None:
    """The module ``target`` names, run for its definitions (cached in ``imports.memo``);
    None when it does not parse, is being loaded (an import cycle), is too deep, or its
    body could not be interpreted (the module's own check reports that)."""
    key = (target.path, digest(target.text))
    memo = imports.memo
    if key in memo:
        return memo[key]  # (None while it is being loaded: an import cycle sees nothing)
    if depth >= MAX_IMPORT_DEPTH:
        return None
    memo[key] = None  # while loading: a cycle sees nothing
    try:
        return _load(target, imports, depth, key, memo)
    except RecursionError:
        del memo[key]  # too deep from where it was first read: another read may load it
        raise


def _load(target: Target, imports: Imports, depth: int, key, memo) -> Loaded | None:
    from gradguard.analysis.engine import parse
    from gradguard.analysis.interp import Interpreter

    module, problem = parse(target.text)
    if module is None:
        return None  # (kept as None: it does not parse, whoever imports it)
    gid = f"G:{target.path}"
    interp = Interpreter(module, gid=gid, imports=imports.for_path(target.path))
    interp.import_depth = depth + 1
    try:
        interp.run_module()
    except RecursionError:
        raise
    except Exception:  # unknown, as an import we cannot find; its own check reports it
        return None
    loaded = Loaded(target.path, target.text, gid, module, interp.global_env, interp.classes,
                    interp.method_gids, interp.submodules, interp.inplace_ctors,
                    frozenset(interp.deps | {key}), dict(interp.loaded))
    loaded.exports = _exports(module)
    if interp.no_grad and interp.no_grad_sites:
        loaded.grad_off = interp.no_grad_sites[-1]
    loaded.loaded[gid] = loaded
    for old in [k for k in memo if k[0] == target.path and k != key and memo[k] is not None]:
        del memo[old]  # an earlier text of the module (an edited buffer)
    memo[key] = loaded
    return loaded


def _exports(module) -> frozenset | None:
    """The names a module's ``__all__`` lists (the last module-level assignment of a
    literal list or tuple of strings), None when it has none (``import *`` then takes
    every public name)."""
    import libcst as cst

    names = None
    for st in module.body:
        for small in st.body if isinstance(st, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign) and any(
                    isinstance(t.target, cst.Name) and t.target.value == "__all__"
                    for t in small.targets) and isinstance(small.value, (cst.List, cst.Tuple)):
                values = [e.value.evaluated_value for e in small.value.elements
                          if isinstance(e.value, cst.SimpleString)]
                names = frozenset(v for v in values if isinstance(v, str))
    return names
