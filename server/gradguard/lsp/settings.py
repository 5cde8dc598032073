"""Editor settings of the language server: parsing, validation, and how they combine with
the project's ``[tool.gradguard]`` (:mod:`gradguard.config`).

The same keys arrive from up to three places, applied in this order (later wins, key by
key): ``initializationOptions``, then ``workspace/configuration`` (section
``gradguard``, globally and per workspace folder), re-read on
``workspace/didChangeConfiguration``. Keys:

* ``enable`` (bool, default true): analyse at all;
* ``select`` / ``ignore`` (lists of codes, code prefixes or rule names): on top of the
  project's configuration, as the CLI flags are: ``select`` replaces the project's
  selection (and its ``ignore``), ``ignore`` adds to it; an empty ``select`` means
  "not set" (turning every rule off is ``enable: false``);
* ``severity`` (object, code / prefix / name -> ``error`` | ``warning`` | ``info``):
  overrides the project's and the rules' severities;
* ``locale`` (string such as ``zh-CN``): language of messages and hovers;
* ``debounceMs`` (integer >= 0, default 150): quiet time after a keystroke before
  analysing;
* ``run`` (``onType`` | ``onSave``, default ``onType``): when to analyse.

An invalid value gives a message naming the key; that key keeps its default and the
other keys still apply. Unknown keys are ignored (clients put their own settings, such as
the server's path, in the same section).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping

from gradguard import config
from gradguard.analysis.model import Message
from gradguard.rules import N_

RUN_MODES = ("onType", "onSave")
"""When the server analyses: after each edit (debounced), or only on open and save."""


@dataclass(frozen=True)
class EditorSettings:
    """The editor's settings for one workspace folder (see the module docstring).

    ``select`` is ``None`` when the editor leaves selection to the project;
    ``select``, ``ignore`` and the selectors in ``severity`` are resolved upper-case
    codes or code prefixes, as in :class:`gradguard.config.Settings`.
    """

    enable: bool = True
    debounce_ms: int = 150
    run: str = "onType"
    locale: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    severity: tuple[tuple[str, str], ...] = ()


DEFAULTS = EditorSettings()


def _problem(msgid: str, source: str, key: str, **args: object) -> list[Message]:
    return [Message(msgid, {"file": source, "key": f"gradguard.{key}", **args})]


# setting key -> EditorSettings field
_FIELDS = {"enable": "enable", "debounceMs": "debounce_ms", "run": "run", "locale": "locale",
           "select": "select", "ignore": "ignore", "severity": "severity"}


def _validate(key: str, value: Any, source: str) -> Any:
    """The value of one setting for its :class:`EditorSettings` field, or a list of
    :class:`Message` objects saying why it is invalid."""
    if key == "enable":
        if isinstance(value, bool):
            return value
        return _problem(N_("{file}: {key}: expected true or false"), source, key)
    if key == "debounceMs":
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        return _problem(N_("{file}: {key}: expected a whole number of milliseconds, 0 or more"),
                        source, key)
    if key == "run":
        if value in RUN_MODES:
            return value
        return _problem(N_("{file}: {key}: expected onType or onSave, not '{value}'"),
                        source, key, value=value)
    if key == "locale" and value in (None, ""):
        return None
    # select, ignore, severity, locale: validated as [tool.gradguard] keys are.
    try:
        parsed = config.settings_from_table({key: value}, source, "", prefix="gradguard.")
    except config.ConfigError as error:
        return list(error.messages)
    if key == "select":
        return parsed.select or None
    return getattr(parsed, key)


def apply_settings(base: EditorSettings, raw: Any, source: str
                   ) -> tuple[EditorSettings, list[Message]]:
    """``base`` with the settings in ``raw`` (a JSON object) applied, and the problems.

    ``source`` names where ``raw`` came from ("initializationOptions", "workspace
    settings") in the problem messages, which read like the configuration's:
    ``{file}: {key}: ...``; an invalid key takes its default. ``None`` leaves ``base``
    unchanged (nothing configured); a
    ``raw`` that is not an object is one problem. Never raises.
    """
    if raw is None:
        return base, []
    if not isinstance(raw, Mapping):
        return base, [Message(N_("{file}: {key}: expected a table"),
                              {"file": source, "key": "gradguard"})]
    changes: dict[str, Any] = {}
    problems = []
    for key, name in _FIELDS.items():
        if key not in raw:
            continue
        value = _validate(key, raw[key], source)
        if isinstance(value, list):
            problems += value
            value = getattr(DEFAULTS, name)
        changes[name] = value
    return dataclasses.replace(base, **changes), problems


def effective_config(editor: EditorSettings, project: config.Settings) -> config.Settings:
    """The project's settings with the editor's ``select``/``ignore`` on top (as the CLI
    flags apply, :func:`gradguard.config.with_overrides`) and the editor's ``severity``
    entries replacing the project's for the same selectors."""
    merged = config.with_overrides(project, select=editor.select, ignore=editor.ignore)
    mine = {selector for selector, _ in editor.severity}
    severity = tuple(e for e in merged.severity if e[0] not in mine) + editor.severity
    return dataclasses.replace(merged, severity=severity)
