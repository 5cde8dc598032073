"""The rule registry: one module per rule, each exporting ``RULE`` (a :class:`Rule`).

A rule module holds everything user-facing about a hazard: its stable code, its
kebab-case name, default severity, the docs text, the VALID / INVALID examples the
test suite runs, and the functions that turn the engine's hazard events into
:class:`~gradguard.analysis.model.Finding` objects with messages and fixes.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

from gradguard import project_url
from gradguard.analysis.model import EngineError, Message

RULE_PAGES = "docs/rules"
"""The folder of the repository holding each rule's page (``GG101.md``) and their index
(``README.md``), written by ``scripts/gen_rule_docs.py`` from the :class:`Rule` records."""


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction into the gettext catalogs; returns it unchanged."""
    return msgid


def engine_error_message(error: EngineError) -> Message:
    """What the user is told about an internal error of the engine: which function (or
    the module body) could not be analysed, or which rule failed there, why, and that
    those findings are missing."""
    args = {"error": error.message}
    if error.root is not None:
        args["function"] = error.root
    if error.kind == "rule":
        args["code"] = error.where
        msgid = N_("internal error: rule {code} failed on the module body ({error}); its "
                   "{code} findings there are missing") if error.root is None else \
            N_("internal error: rule {code} failed on function `{function}` ({error}); its "
               "{code} findings there are missing")
    else:
        msgid = N_("internal error: could not analyse the module body ({error}); its "
                   "findings are missing") if error.root is None else \
            N_("internal error: could not analyse function `{function}` ({error}); its "
               "findings are missing")
    return Message(msgid, args)


# CPython's most common syntax error messages, as messages of ours (so they are
# translated); the pattern's groups are the message's arguments, in order
_SYNTAX_MESSAGES = tuple((re.compile(pattern), msgid) for pattern, msgid in (
    (r"expected ':'", N_("syntax error: expected ':'")),
    (r"invalid syntax", N_("syntax error: invalid syntax")),
    (r"invalid syntax\. Perhaps you forgot a comma\?",
     N_("syntax error: invalid syntax. Perhaps you forgot a comma?")),
    (r"unexpected indent", N_("syntax error: unexpected indent")),
    (r"unindent does not match any outer indentation level",
     N_("syntax error: unindent does not match any outer indentation level")),
    (r"expected an indented block after (.+) on line (\d+)",
     N_("syntax error: expected an indented block after {after} on line {line}")),
    (r"'(.)' was never closed", N_("syntax error: '{bracket}' was never closed")),
    (r"unmatched '(.)'", N_("syntax error: unmatched '{bracket}'")),
    (r"closing parenthesis '(.)' does not match opening parenthesis '(.)'(?: on line (\d+))?",
     N_("syntax error: closing parenthesis '{closing}' does not match opening parenthesis "
        "'{opening}'")),
    (r"unterminated string literal \(detected at line (\d+)\)",
     N_("syntax error: unterminated string literal (detected at line {line})")),
    (r"unterminated triple-quoted string literal \(detected at line (\d+)\)",
     N_("syntax error: unterminated triple-quoted string literal (detected at line {line})")),
    (r"too deeply nested to analyse", N_("syntax error: too deeply nested to analyse")),
))


def syntax_error_message(message: str) -> Message:
    """What the user is told about a text that does not parse: Python's own message
    (``expected ':'``), one of ours when it is a common one (so it is translated)."""
    for pattern, msgid in _SYNTAX_MESSAGES:
        m = pattern.fullmatch(message)
        if m is not None:
            names = [n for _, n, _, _ in string.Formatter().parse(msgid) if n]
            values = [int(g) if g.isdigit() else g for g in m.groups() if g is not None]
            return Message(msgid, dict(zip(names, values)))
    return Message(N_("syntax error: {message}"), {"message": message})


@dataclass(frozen=True)
class Rule:
    """A rule's identity and documentation.

    ``severity`` is "error", "warning" or "info". ``summary`` and ``docs`` are English
    msgids (docs in Markdown: What it does / Why is this bad / Example / Use instead).
    ``valid`` and ``invalid`` are small programs: the rule must stay silent on each valid
    one and report at least once on each invalid one (tests run them).
    """

    code: str
    name: str
    severity: str
    summary: str
    docs: str
    valid: tuple[str, ...] = field(default=())
    invalid: tuple[str, ...] = field(default=())

    @property
    def url(self) -> str:
        """The rule's page: ``<Repository>/blob/main/docs/rules/GG101.md`` (the
        ``Repository`` of ``[project.urls]``, see :func:`gradguard.project_url`)."""
        return f"{project_url('Repository')}/blob/main/{RULE_PAGES}/{self.code}.md"


def all_rules() -> tuple[Rule, ...]:
    """Every rule, ordered by code."""
    from gradguard.rules import registry

    return registry.RULES


def rule_for(code_or_name: str) -> Rule | None:
    """The rule whose code (``GG101``, any case) or kebab-case name matches, else ``None``."""
    key = code_or_name.strip()
    for rule in all_rules():
        if rule.code.lower() == key.lower() or rule.name == key.lower():
            return rule
    return None
