"""What ``retain_graph=True`` costs, as messages: the titles of the retain fixes
(:func:`gradguard.rules.common.retain_fix` fills them from the hazard) and the hover's
"Why not retain_graph=True" text for each. No engine import: the language server's
hover reads :data:`RETAIN_WHY_NOT` without loading the analyzer."""

from __future__ import annotations

from gradguard.rules import N_

# What ``retain_graph=True`` costs, by what the hazard is: the fix's title and the
# hover's "Why not retain_graph=True" text (same arguments), with and without the calls
# the kept graph runs through (left out when none is known). "kept": GG101's preferred
# fix (two backwards meant to share one graph); "same": freed earlier in the same pass;
# "carried": built in an earlier iteration and chained to the next; "reused": built once
# before the loop.
RETAIN_COSTS = {
    ("kept", True): (N_(
        "Keep the graph for the later backward: retain_graph=True on line {line}; the graph "
        "of `{graph}` (built on line {built_line}, through {through}) stays in memory until "
        "the backward on line {until_line}"), None),
    ("kept", False): (N_(
        "Keep the graph for the later backward: retain_graph=True on line {line}; the graph "
        "of `{graph}` (built on line {built_line}) stays in memory until the backward on line "
        "{until_line}"), None),
    ("same", True): (N_(
        "Silence with retain_graph=True on line {line}, which hides the bug: the graph of "
        "`{graph}` (built on line {built_line}, through {through}) stays in memory until the "
        "backward on line {until_line} runs through it a second time"),
        N_("retain_graph=True on line {line} would silence the error, not fix it: the graph "
           "of `{graph}` (built on line {built_line}, through {through}) would stay in memory "
           "until the backward on line {until_line} runs through it a second time.")),
    ("same", False): (N_(
        "Silence with retain_graph=True on line {line}, which hides the bug: the graph of "
        "`{graph}` (built on line {built_line}) stays in memory until the backward on line "
        "{until_line} runs through it a second time"),
        N_("retain_graph=True on line {line} would silence the error, not fix it: the graph "
           "of `{graph}` (built on line {built_line}) would stay in memory until the backward "
           "on line {until_line} runs through it a second time.")),
    ("carried", True): (N_(
        "Silence with retain_graph=True on line {line}, which hides the bug: the graph of "
        "`{graph}` (built on line {built_line}, through {through}) and every iteration's "
        "graph chained to it stay in memory, and each backward also runs through all earlier "
        "iterations' graphs, so time and memory grow with every step"),
        N_("retain_graph=True on line {line} would silence the error, not fix it: the graph "
           "of `{graph}` (built on line {built_line}, through {through}) and every "
           "iteration's graph chained to it would stay in memory, and each backward would also "
           "run through all earlier iterations' graphs, so time and memory grow with every "
           "step.")),
    ("carried", False): (N_(
        "Silence with retain_graph=True on line {line}, which hides the bug: the graph of "
        "`{graph}` (built on line {built_line}) and every iteration's graph chained to it "
        "stay in memory, and each backward also runs through all earlier iterations' "
        "graphs, so time and memory grow with every step"),
        N_("retain_graph=True on line {line} would silence the error, not fix it: the graph "
           "of `{graph}` (built on line {built_line}) and every iteration's graph chained to "
           "it would stay in memory, and each backward would also run through all earlier "
           "iterations' graphs, so time and memory grow with every step.")),
    ("reused", True): (N_(
        "Silence with retain_graph=True on line {line}, which hides the bug: the graph of "
        "`{graph}` (built once before the loop on line {built_line}, through {through}) "
        "stays in memory for the whole loop, and every iteration's backward runs through "
        "that same graph again, computed before the loop"),
        N_("retain_graph=True on line {line} would silence the error, not fix it: the graph "
           "of `{graph}` (built once before the loop on line {built_line}, through "
           "{through}) would stay in memory for the whole loop, and every iteration's "
           "backward would run through that same graph again, computed before the loop.")),
    ("reused", False): (N_(
        "Silence with retain_graph=True on line {line}, which hides the bug: the graph of "
        "`{graph}` (built once before the loop on line {built_line}) stays in memory for "
        "the whole loop, and every iteration's backward runs through that same graph again, "
        "computed before the loop"),
        N_("retain_graph=True on line {line} would silence the error, not fix it: the graph "
           "of `{graph}` (built once before the loop on line {built_line}) would stay in "
           "memory for the whole loop, and every iteration's backward would run through that "
           "same graph again, computed before the loop.")),
}

# An optimizer step between the two backwards changed parameters the kept graph saved:
# the later backward then fails autograd's version check instead
RETAIN_STEPPED = {
    True: (N_(
        "Silence with retain_graph=True on line {line}, which only trades this error for "
        "another: the graph of `{graph}` (built on line {built_line}, through {through}) "
        "stays in memory, but `{optimizer}.step()` on line {step_line} changes the "
        "parameters it saved, so the backward on line {until_line} then fails with "
        "\"modified by an inplace operation\""),
        N_("retain_graph=True on line {line} would only trade this error for another: the "
           "graph of `{graph}` (built on line {built_line}, through {through}) would stay in "
           "memory, but `{optimizer}.step()` on line {step_line} changes the parameters it "
           "saved, so the backward on line {until_line} would fail with \"one of the "
           "variables needed for gradient computation has been modified by an inplace "
           "operation\".")),
    False: (N_(
        "Silence with retain_graph=True on line {line}, which only trades this error for "
        "another: the graph of `{graph}` (built on line {built_line}) stays in memory, but "
        "`{optimizer}.step()` on line {step_line} changes the parameters it saved, so the "
        "backward on line {until_line} then fails with \"modified by an inplace "
        "operation\""),
        N_("retain_graph=True on line {line} would only trade this error for another: the "
           "graph of `{graph}` (built on line {built_line}) would stay in memory, but "
           "`{optimizer}.step()` on line {step_line} changes the parameters it saved, so the "
           "backward on line {until_line} would fail with \"one of the variables needed for "
           "gradient computation has been modified by an inplace operation\".")),
}

RETAIN_WHY_NOT = {title: why for title, why in (*RETAIN_COSTS.values(), *RETAIN_STEPPED.values())
                  if why is not None}
"""The hover text saying what a non-preferred retain_graph=True fix costs, by the msgid
of its title (the same arguments fill both)."""
