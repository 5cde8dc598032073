"""The list of rules, one module each; add a rule by adding its module here."""

from __future__ import annotations

from gradguard.rules import (
    gg101_backward_through_freed_graph as gg101,
    gg102_graph_carried_across_iterations as gg102,
    gg103_graph_reused_across_iterations as gg103,
    gg104_detach_result_discarded as gg104,
    gg201_parameters_updated_before_backward as gg201,
    gg202_inplace_on_saved_tensor as gg202,
    gg301_graph_kept_alive_by_accumulation as gg301,
    gg302_retain_graph_hides_carried_graph as gg302,
    gg303_eval_without_no_grad as gg303,
)

RULES = tuple(sorted((gg101.RULE, gg102.RULE, gg103.RULE, gg104.RULE, gg201.RULE, gg202.RULE,
                      gg301.RULE, gg302.RULE, gg303.RULE), key=lambda r: r.code))

_BY_HAZARD = {"same": gg101.build, "carried": gg102.build, "reused": gg103.build}


def build_findings(interp, src):
    """Turn the interpreter's hazard events into findings, rule by rule."""
    for hazard in interp.hazards:
        yield _BY_HAZARD[hazard.kind](hazard, interp, src)
    yield from gg104.build_all(interp.detaches, src)
    for hazard in interp.inplace:
        yield (gg201 if hazard.kind == "param" else gg202).build(hazard, interp, src)
    for hazard in interp.retained_carries:
        yield gg302.build(hazard, interp, src)
    for rec in interp.accumulations.values():
        if id(rec.node) in interp.consumed:
            continue
        if rec.eval_mode:
            yield gg303.build(rec, src)
        elif rec.passes & interp.passes_with_backward:
            yield gg301.build(rec, src)
