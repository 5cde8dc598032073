"""GG102 graph-carried-across-iterations."""

from gradguard.rules import N_, Rule

RULE = Rule(
    code="GG102",
    name="graph-carried-across-iterations",
    severity="error",
    summary=N_("TODO"),
    docs=N_("TODO"),
)
