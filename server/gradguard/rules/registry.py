"""The list of rules, one module each; add a rule by adding its module here."""

from gradguard.rules import (
    gg101_backward_through_freed_graph,
    gg102_graph_carried_across_iterations,
    gg103_graph_reused_across_iterations,
)

RULES = tuple(
    sorted(
        (
            gg101_backward_through_freed_graph.RULE,
            gg102_graph_carried_across_iterations.RULE,
            gg103_graph_reused_across_iterations.RULE,
        ),
        key=lambda r: r.code,
    )
)
