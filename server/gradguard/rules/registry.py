"""The list of rules, one module each; add a rule by adding its module here."""

from __future__ import annotations

import os
from dataclasses import replace

from gradguard.analysis.model import Finding, Message, Related
from gradguard.rules import N_
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
    gg401_backward_without_graph as gg401,
    gg402_parameters_never_receive_gradient as gg402,
    gg403_parameters_never_updated as gg403,
)

RULES = tuple(sorted((gg101.RULE, gg102.RULE, gg103.RULE, gg104.RULE, gg201.RULE, gg202.RULE,
                      gg301.RULE, gg302.RULE, gg303.RULE, gg401.RULE, gg402.RULE,
                      gg403.RULE),
                     key=lambda r: r.code))

_BY_HAZARD = {"same": gg101, "carried": gg102, "reused": gg103}


def has_events(interp) -> bool:
    """Whether the interpreter raised an event some rule may turn into a finding (else
    no position needs resolving)."""
    return bool(interp.hazards or interp.detaches or interp.inplace or
                interp.accumulations or interp.retained_carries or interp.no_graph or
                gg402.candidates(interp) or gg402.cleared_steps(interp) or
                gg402.cut_out_parts(interp) or gg403.unoptimized(interp))


def text_facts(text: str) -> tuple:
    """What rules read from the file's whole text rather than from a root's events and
    the nodes they name: a root's findings depend on it too (the incremental engine
    reuses them only while it is unchanged)."""
    return gg303.names_torch(text), gg402.writes_grads(text)


def finding_builders(interp, src):
    """For each event of the interpreter, ``(rule code, function returning its findings)``:
    the engine runs each one in isolation, so a bug in one rule costs only its findings.
    Findings are in this file (see :func:`localized`)."""
    for code, build, frames in _builders(interp, src):
        # (frames None: the builder gives each finding with its own frames)
        yield code, lambda b=build, fr=frames: [
            f for f in (localized(x, fr, src) if fr is not None else localized(*x, src)
                        for x in b()) if f is not None]


def localized(finding: Finding, frames, src) -> Finding | None:
    """A finding whose site a rule put in an imported module of the user's is reported
    on a backward of this file the hazard is about (the one that freed the graph, or that
    needs a tensor an imported ``forward`` changed in place), else on the statement of this
    file through which the event's code was reached (``frames``: the event's ``(frame id,
    statement, function)`` path; a GAN step written in an imported ``trainer.py`` and
    called here), else on its first related location in this file. The site becomes a
    related location. None when nothing of it is in this file."""
    if finding.span.path is None:
        return finding
    local = [src.span(stmt) for _, stmt, _ in frames or ()
             if stmt is not None and src.span(stmt).path is None]
    here = next((r for r in finding.related if r.span.path is None and r.backward), None)
    if here is None and not local:
        here = next((r for r in finding.related if r.span.path is None), None)
    related = tuple(r for r in finding.related if r is not here)
    if here is None:
        if not local:
            return None
        span = local[-1]
        line = src.line(span.start.line)
        start = len(line) - len(line.lstrip())
        span = type(span)(type(span.start)(span.start.line, start),
                          type(span.start)(span.start.line, len(line.rstrip())))
    else:
        span = here.span
    site = Related(finding.span, Message(N_("it happens here, in {file}"),
                                         {"file": os.path.basename(finding.span.path)}))
    fixes = tuple(fix for fix in finding.fixes if fix.edits)
    return replace(finding, span=span, related=(site,) + related, fixes=fixes)


def _builders(interp, src):
    """``(rule code, build, event frames)`` for each event (frames None: build gives
    ``(finding, frames)`` pairs)."""
    for hazard in interp.hazards:
        rule = _BY_HAZARD[hazard.kind]
        yield rule.RULE.code, lambda h=hazard, r=rule: [r.build(h, interp, src)], hazard.frames
    yield gg104.RULE.code, lambda: gg104.build_all(interp.detaches, src), ()
    for hazard in interp.inplace:
        rule = gg201 if hazard.kind == "param" else gg202
        yield rule.RULE.code, lambda h=hazard, r=rule: [r.build(h, interp, src)], hazard.frames
    for hazard in interp.retained_carries:
        yield gg302.RULE.code, lambda h=hazard: [gg302.build(h, interp, src)], hazard.frames
    for rec in interp.accumulations.values():
        if id(rec.node) in interp.consumed or not rec.passes:
            continue  # (consumed, or let go in each pass it was made in: released)
        if rec.eval_mode:
            yield gg303.RULE.code, lambda r=rec: [gg303.build(r, src, interp.step_recs)], \
                rec.frames
        elif rec.passes & interp.passes_with_backward:
            yield gg301.RULE.code, lambda r=rec: [gg301.build(r, interp, src)], rec.frames
    for h in interp.no_graph:
        yield gg401.RULE.code, lambda h=h: [gg401.build(h, src)], getattr(h, "frames", ())
    yield gg402.RULE.code, lambda: gg402.build_all(interp, src), None
    yield gg403.RULE.code, lambda: gg403.build_all(interp, src), None
