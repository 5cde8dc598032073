"""GG101 backward-through-freed-graph."""

from gradguard.rules import N_, Rule

RULE = Rule(
    code="GG101",
    name="backward-through-freed-graph",
    severity="error",
    summary=N_("TODO"),
    docs=N_("TODO"),
)
