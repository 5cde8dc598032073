"""The rule registry: one module per rule, each exporting ``RULE`` (a :class:`Rule`).

A rule module holds everything user-facing about a hazard: its stable code, its
kebab-case name, default severity, the docs text, the VALID / INVALID examples the
test suite runs, and the functions that turn the engine's hazard events into
:class:`~gradguard.analysis.model.Finding` objects with messages and fixes.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction into the gettext catalogs; returns it unchanged."""
    return msgid


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
        """The rule's documentation page."""
        return f"https://gradguard.dev/rules/{self.code}"


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
