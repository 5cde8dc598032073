"""GG103 graph-reused-across-iterations."""

from gradguard.rules import N_, Rule

RULE = Rule(
    code="GG103",
    name="graph-reused-across-iterations",
    severity="error",
    summary=N_("TODO"),
    docs=N_("TODO"),
)
