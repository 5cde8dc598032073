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

_BY_HAZARD = {"same": gg101, "carried": gg102, "reused": gg103}


def finding_builders(interp, src):
    """For each event of the interpreter, ``(rule code, function returning its findings)``:
    the engine runs each one in isolation, so a bug in one rule costs only its findings."""
    for hazard in interp.hazards:
        rule = _BY_HAZARD[hazard.kind]
        yield rule.RULE.code, lambda h=hazard, r=rule: [r.build(h, interp, src)]
    yield gg104.RULE.code, lambda: gg104.build_all(interp.detaches, src)
    for hazard in interp.inplace:
        rule = gg201 if hazard.kind == "param" else gg202
        yield rule.RULE.code, lambda h=hazard, r=rule: [r.build(h, interp, src)]
    for hazard in interp.retained_carries:
        yield gg302.RULE.code, lambda h=hazard: [gg302.build(h, interp, src)]
    for rec in interp.accumulations.values():
        if id(rec.node) in interp.consumed:
            continue
        if rec.eval_mode:
            yield gg303.RULE.code, lambda r=rec: [gg303.build(r, src)]
        elif rec.passes & interp.passes_with_backward:
            yield gg301.RULE.code, lambda r=rec: [gg301.build(r, src)]
