"""Configuration: ``[tool.gradguard]`` in the nearest ``pyproject.toml``.

Keys (the same as the editor settings and the CLI flags)::

    [tool.gradguard]
    select = ["GG1"]                 # codes, prefixes or kebab-case names; default: every rule
    ignore = ["graph-reused-across-iterations"]
    per-file-ignores = { "tests/*.py" = ["GG103"] }
    exclude = ["build/", "third_party/"]   # replaces the default exclusions
    extend-exclude = ["generated/"]        # adds to them
    locale = "zh-CN"
    severity = { GG103 = "info" }          # error / warning / info

Patterns (``per-file-ignores``, ``exclude``, ``extend-exclude``) are gitignore-style,
relative to the directory holding the ``pyproject.toml``: ``name`` matches at any depth,
``dir/`` only directories, ``a/b.py`` is anchored.

Selectors: a full code (``GG101``, any case), a code prefix (``GG1``, ``GG``) or a rule
name (``backward-through-freed-graph``). When a code matches both ``select`` and
``ignore``, the more specific selector wins (``select = ["GG101"]`` with
``ignore = ["GG1"]`` keeps GG101); on a tie, ``ignore`` wins.

The configuration that applies to a file is the nearest ``pyproject.toml`` holding a
``[tool.gradguard]`` table, walking up from the file's directory; without one the
defaults apply, with patterns relative to the current directory.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

import pathspec

from gradguard.analysis.model import Message
from gradguard.rules import N_, all_rules, rule_for

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

SEVERITIES = (N_("error"), N_("warning"), N_("info"))
"""The severities a finding can have, most severe first (msgids: shown translated)."""

DEFAULT_EXCLUDE = (
    ".git/", ".hg/", ".svn/", ".venv/", "venv/", ".tox/", ".nox/", ".eggs/",
    "build/", "dist/", "node_modules/", "__pycache__/", "__pypackages__/", "site-packages/",
    ".ipynb_checkpoints/",
)
"""Directories never walked into unless ``exclude`` is set (gitignore-style patterns;
``.ipynb_checkpoints`` holds Jupyter's autosaved copies of notebooks, as in ruff's defaults).
Not ``env/``: a package of environments (``tianshou/env/``) is code to check, and a virtual
environment of that name holds a ``pyvenv.cfg``, which the walk skips by itself."""

_CODE_SELECTOR = re.compile(r"GG\d{0,3}\Z")


class ConfigError(Exception):
    """A configuration that cannot be used. ``messages`` are translatable
    :class:`~gradguard.analysis.model.Message` objects, one per problem (every bad key of a
    table, not only the first), each naming the file (or other source) and the key;
    ``str(error)`` is their English text, one line each."""

    def __init__(self, *messages: Message):
        super().__init__("\n".join(m.render() for m in messages))
        self.messages = messages


@dataclass(frozen=True)
class Settings:
    """The configuration that applies to one file.

    ``select``/``ignore`` hold upper-case codes or code prefixes (names are resolved
    when loading). ``per_file_ignores`` pairs a gitignore-style pattern with selectors.
    ``severity`` pairs a selector with "error", "warning" or "info". ``root`` is the
    absolute directory the patterns are relative to; ``source`` names where the settings
    came from (a ``pyproject.toml`` path, or ``None`` for the defaults).
    """

    select: tuple[str, ...] = ("GG",)
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    locale: str | None = None
    severity: tuple[tuple[str, str], ...] = ()
    root: str = ""
    source: str | None = None


def resolve_selector(token: str) -> str | None:
    """The upper-case code or code prefix that ``token`` (a code, a prefix such as
    ``GG1``, or a kebab-case rule name) stands for, or ``None`` if it names no rule."""
    rule = rule_for(token)
    if rule is not None:
        return rule.code
    key = token.strip().upper()
    if _CODE_SELECTOR.match(key) and any(r.code.startswith(key) for r in all_rules()):
        return key
    return None


def _specificity(selectors: Iterable[str], code: str) -> int:
    """Length of the longest selector that is a prefix of ``code``; -1 if none is."""
    return max((len(s) for s in selectors if code.startswith(s)), default=-1)


def rule_enabled(settings: Settings, code: str, path: str | os.PathLike | None) -> bool:
    """Whether findings of rule ``code`` are reported for the file at ``path``.

    ``path`` is the file's path (absolute, or relative to the current directory), or
    ``None`` for a document without one (then ``per-file-ignores`` do not apply).
    """
    selected = _specificity(settings.select, code)
    if selected < 0 or _specificity(settings.ignore, code) >= selected:
        return False
    if path is None:
        return True
    rel = _relative(settings, path)
    return not any(
        _specificity(codes, code) >= 0 and _spec((pattern,)).match_file(rel)
        for pattern, codes in settings.per_file_ignores
    )


def severity_for(settings: Settings, code: str) -> str:
    """The severity of findings of rule ``code``: the most specific ``severity`` entry
    matching it, else the rule's default ("error", "warning" or "info")."""
    best = max(
        ((len(sel), level) for sel, level in settings.severity if code.startswith(sel)),
        default=None,
    )
    if best is not None:
        return best[1]
    rule = rule_for(code)
    if rule is None:
        raise KeyError(f"no rule has the code {code!r}")
    return rule.severity


def is_excluded(settings: Settings, path: str | os.PathLike, is_dir: bool) -> bool:
    """Whether ``exclude``/``extend-exclude`` match ``path`` (a directory if ``is_dir``)."""
    rel = _relative(settings, path) + ("/" if is_dir else "")
    return _spec(settings.exclude + settings.extend_exclude).match_file(rel)


def _relative(settings: Settings, path: str | os.PathLike) -> str:
    """``path`` relative to ``settings.root`` in POSIX form; its name alone when outside."""
    absolute = os.path.abspath(path)
    rel = os.path.relpath(absolute, settings.root or os.getcwd())
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return os.path.basename(absolute)
    return rel.replace(os.sep, "/")


@functools.lru_cache(maxsize=256)
def _spec(patterns: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    return pathspec.GitIgnoreSpec.from_lines(patterns)


KEYS = ("select", "ignore", "per-file-ignores", "exclude", "extend-exclude", "locale",
        "severity")
"""The keys of ``[tool.gradguard]``."""


def settings_from_table(table: Mapping[str, object], source: str, root: str,
                        prefix: str = "tool.gradguard.") -> Settings:
    """Validate a ``[tool.gradguard]``-shaped mapping and build :class:`Settings`.

    ``source`` names where the table came from (a file path, or "editor settings") and
    starts every error message; ``prefix`` is prepended to key names in messages;
    ``root`` is the absolute directory patterns are relative to. Raises
    :class:`ConfigError` for an unknown key (naming the known key it is close to, if
    any), a value of the wrong type, an unknown rule selector, or a severity other than
    error/warning/info: one message for each problem in the table, not only the first.
    """
    problems: list[Message] = []

    def fail(msgid: str, key: str, **args: object) -> None:
        problems.append(Message(msgid, {"file": source, "key": prefix + key, **args}))

    def strings(key: str, value: object) -> tuple[str, ...] | None:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            fail(N_("{file}: {key}: expected a list of strings"), key)
            return None
        return tuple(value)

    def selector(key: str, token: str) -> str | None:
        code = resolve_selector(token)
        if code is None:
            fail(N_("{file}: {key}: unknown rule, code or prefix '{value}'"), key, value=token)
        return code

    def selectors(key: str, value: object) -> tuple[str, ...]:
        codes = [selector(key, token) for token in strings(key, value) or ()]
        return tuple(c for c in codes if c is not None)

    def table_of(key: str, value: object) -> Mapping[str, object]:
        if not isinstance(value, dict):
            fail(N_("{file}: {key}: expected a table"), key)
            return {}
        return value

    fields: dict[str, object] = {"root": root, "source": source}
    for key, value in table.items():
        if key in ("select", "ignore"):
            fields[key] = selectors(key, value)
        elif key in ("exclude", "extend-exclude"):
            fields[key.replace("-", "_")] = strings(key, value)
        elif key == "per-file-ignores":
            fields["per_file_ignores"] = tuple(
                (pattern, selectors(f'{key}."{pattern}"', codes))
                for pattern, codes in table_of(key, value).items()
            )
        elif key == "severity":
            entries = []
            for token, level in table_of(key, value).items():
                code = selector(f"{key}.{token}", token)
                if level not in SEVERITIES:
                    fail(N_("{file}: {key}: expected error, warning or info, not '{value}'"),
                         f"{key}.{token}", value=level)
                elif code is not None:
                    entries.append((code, level))
            fields["severity"] = tuple(entries)
        elif key == "locale":
            if not isinstance(value, str):
                fail(N_("{file}: {key}: expected a string"), key)
            fields["locale"] = value
        elif close := difflib.get_close_matches(key, KEYS, n=1):
            fail(N_("{file}: {key}: unknown key (did you mean `{suggestion}`?)"), key,
                 suggestion=close[0])
        else:
            fail(N_("{file}: {key}: unknown key"), key)
    if problems:
        raise ConfigError(*problems)
    return Settings(**fields)


def with_overrides(settings: Settings, *, select: Iterable[str] | None = None,
                   ignore: Iterable[str] = (), locale: str | None = None) -> Settings:
    """``settings`` with command-line choices on top (selectors already resolved to codes).

    ``select`` replaces the configured selection and drops the configured ``ignore``
    (as in ruff, a new selection starts afresh); ``ignore`` adds to what is configured;
    ``locale`` replaces it.
    """
    changes: dict[str, object] = {}
    if select is not None:
        changes.update(select=tuple(select), ignore=tuple(ignore))
    else:
        changes["ignore"] = settings.ignore + tuple(ignore)
    if locale is not None:
        changes["locale"] = locale
    return dataclasses.replace(settings, **changes)


def read_pyproject(path: Path) -> Mapping[str, object] | None:
    """The ``[tool.gradguard]`` table of the ``pyproject.toml`` at ``path``, or ``None``
    if it has none. Raises :class:`ConfigError` if the file cannot be read or is not
    valid TOML, or if ``tool.gradguard`` is not a table."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise ConfigError(Message(N_("{file}: cannot read: {reason}"),
                                  {"file": str(path), "reason": e.strerror or str(e)})) from e
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(Message(N_("{file}: invalid TOML: {reason}"),
                                  {"file": str(path), "reason": str(e)})) from e
    tool = data.get("tool")
    table = tool.get("gradguard") if isinstance(tool, dict) else None
    if table is not None and not isinstance(table, dict):
        raise ConfigError(Message(N_("{file}: {key}: expected a table"),
                                  {"file": str(path), "key": "tool.gradguard"}))
    return table


class SettingsResolver:
    """Finds, loads and caches the :class:`Settings` for each directory.

    ``overrides`` (keyword arguments of :func:`with_overrides`) are applied on top of
    every configuration found. Not thread-safe; one per run.
    """

    def __init__(self, **overrides: object):
        self._overrides = overrides
        self._by_dir: dict[str, Settings] = {}

    def for_path(self, path: str | os.PathLike) -> Settings:
        """The settings for the file or directory at ``path`` (it need not exist).

        Raises :class:`ConfigError` if the governing ``pyproject.toml`` is invalid.
        """
        absolute = Path(os.path.abspath(path))
        return self._for_dir(absolute if absolute.is_dir() else absolute.parent)

    def _for_dir(self, directory: Path) -> Settings:
        key = str(directory)
        if key not in self._by_dir:
            candidate = directory / "pyproject.toml"
            table = read_pyproject(candidate) if candidate.is_file() else None
            if table is not None:
                found = settings_from_table(table, str(candidate), str(directory))
                self._by_dir[key] = with_overrides(found, **self._overrides)
            elif directory.parent != directory:
                self._by_dir[key] = self._for_dir(directory.parent)
            else:
                self._by_dir[key] = with_overrides(Settings(root=os.getcwd()), **self._overrides)
        return self._by_dir[key]
