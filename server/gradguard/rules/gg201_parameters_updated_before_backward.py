"""GG201 parameters-updated-before-backward: an optimizer step (or another in-place update
of parameters) runs between the forward pass that saved those parameters and a backward
through that graph.

Autograd checks each saved tensor's version counter when it is used in backward
(torch/csrc/autograd/saved_variable.cpp): ``optimizer.step()`` updates parameters in place,
so a graph built before the step fails with "one of the variables needed for gradient
computation has been modified by an inplace operation".
"""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m

from gradguard.analysis.interp import InplaceHazard, Interpreter
from gradguard.analysis.model import Finding, Fix, Message, Related
from gradguard.analysis.python_semantics import names_read
from gradguard.analysis.source import Source
from gradguard.rules import N_, Rule
from gradguard.rules import common as C

RULE = Rule(
    code="GG201",
    name="parameters-updated-before-backward",
    severity="error",
    summary=N_("Parameters are updated in place between the forward pass that saved them "
               "and a backward through it"),
    docs=N_("""## What it does
Finds a backward through a graph whose forward pass saved module parameters that an
`optimizer.step()` (or `p.clamp_()`, `p.copy_()`, an EMA update) changed in place after
the forward and before this backward. Classic shapes: an actor-critic that steps the
critic before the backward of the actor loss built from the same forward; a GAN that steps
D before the backward of a G loss computed through D earlier.

## Why is this bad
Autograd checks that every tensor a node saved is unchanged when backward needs it.
The step changed the parameters in place, so the backward raises
`RuntimeError: one of the variables needed for gradient computation has been modified
by an inplace operation`.

## Example
```python
critic_loss.backward()
critic_opt.step()          # updates the critic in place
actor_loss.backward()      # actor_loss was computed through the old critic
```

## Use instead
Recompute the loss after the update (the algorithm then uses the updated parameters),
or run all backwards first and then the steps:
```python
critic_loss.backward()
critic_opt.step()
actor_loss = -critic(states, actor(states)).mean()
actor_loss.backward()
```
"""),
    valid=(
        """import torch
net = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.randn(4, 2)
for _ in range(2):
    loss = net(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""",
    ),
    invalid=(
        """import torch
net = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.randn(4, 2)
out = net(x)
out.pow(2).mean().backward(retain_graph=True)
opt.step()
out.abs().mean().backward()
""",
    ),
)


def build(h: InplaceHazard, interp: Interpreter, src: Source) -> Finding:
    """The GG201 finding: at the backward that needs the updated parameters."""
    bump_node = h.bump[0]
    node = h.seg.node
    # a module call (``netD(fake)``) by the module's name; an operation that saved a
    # parameter it was given (``torch.norm(net.weight)``) by its code
    module = h.seg.label if not isinstance(node, cst.Call) or \
        src.code(node.func, 60) == h.seg.label else src.code(node, 40)
    args = {"tensor": src.code(h.root, 40) if h.root is not None else "loss",
            "module": module, "built_line": src.line_ref(h.seg.node),
            "update_line": src.line_ref(bump_node)}
    message = Message(N_("`{tensor}` backpropagates through `{module}` as it was on line "
                         "{built_line}, but its parameters were updated in place on line "
                         "{update_line}"), args)
    related = (
        Related(src.span(h.seg.node), Message(N_("the forward pass saved the parameters "
                                                 "of `{module}` here"), {"module": module})),
        Related(src.span(bump_node), Message(N_("the parameters were updated here"), {})),
    )
    fixes = tuple(f for f in (recompute_after_update(h, interp, src), reorder_update(h, src))
                  if f is not None)
    return Finding(RULE.code, src.site(h.node), message, related, fixes[:1])


def recompute_after_update(h: InplaceHazard, interp: Interpreter, src: Source) -> Fix | None:
    """Re-run, just before the backward, the one-line assignments (in the backward's
    function) that built the stale part of the loss; None when some other part of it that
    saved the same parameters would stay stale."""
    frame_id, here, func = h.frames[-1]
    if here is None or h.root is None:
        return None
    if _earlier_iteration(h.seg.stamp, h.stamp, interp):
        # the stale graph was built in an earlier iteration (carried in state): a
        # recomputation in this iteration cannot reach it
        return None
    # every node of this pass that saved those parameters as the hazard's did (``d_real``
    # and ``d_fake``, both through the stepped discriminator) is stale alike
    version = next(v for st, v in h.seg.saved if st == h.store)
    stale = {sid for sid, seg in interp.segs.items()
             if seg.stamp == h.seg.stamp and (h.store, version) in seg.saved}
    found = C.recompute_chain(h, src, stale)
    if found is None:
        return None
    chain, reach = found
    if not chain or not _updated_before(h, here, src):
        return None
    if any(interp.segs[s].stmt not in chain and interp.segs[s].stamp != h.seg.stamp and
           any(store == h.store for store, _ in interp.segs[s].saved) for s in reach):
        # a part read as it is (not recomputed) saved them in another pass: it stays stale
        return None
    names = ", ".join(src.code(s.body[0].targets[0].target, 30) for s in chain)
    at = _first_use_after_update(h, here, chain, src)
    return Fix(Message(N_("Recompute `{names}` after the parameter update, so this backward "
                       "uses the updated parameters"), {"names": names}),
               (src.insert_line_before(at, *(src.statement_code(s) for s in chain)),),
               preferred=True)


def _first_use_after_update(h: InplaceHazard, here, chain, src: Source):
    """Where the recomputation goes: before the first statement of the backward's block,
    after the update, that reads or writes a name it binds (``losses["g"] = losses["l1"]
    + ...`` before ``losses["g"].backward()``: recomputing ``losses`` between them would
    drop the key just set); else just before the backward."""
    bound = {n for s in chain for t in s.body[0].targets
             for n in names_read(t.target) if isinstance(t.target, (cst.Name, cst.Tuple))}
    update = next((stmt for fid, stmt in h.bump[1] if fid == h.frames[-1][0]), None)
    start = src.span(update).end if update is not None else None
    block = C.block_of(src.module, here)
    for st in block.body[:block.body.index(here)] if block is not None else ():
        span = src.span(st)
        if start is not None and span.start >= start and st not in chain and \
                names_read(st) & bound:
            return st
    return here


def _earlier_iteration(built: tuple, now: tuple, interp: Interpreter) -> bool:
    """Whether loop passes ``built`` are an earlier iteration of a loop still running at
    ``now`` (not a sibling loop that ended before: a discriminator loop's last ``fake``
    reused by the generator loop after it is recomputed in the generator loop)."""
    for a, b in zip(built, now):
        if a != b:
            return interp.pass_loop.get(a) == interp.pass_loop.get(b)
    return False


def _updated_before(h: InplaceHazard, here, src: Source) -> bool:
    """Whether the update happened in an earlier statement of the backward's function
    (so a recomputation placed just before the backward sees the new parameters)."""
    frame_id = h.frames[-1][0]
    for fid, stmt in h.bump[1]:
        if fid == frame_id:
            return stmt is not None and src.span(stmt).end <= src.span(here).start or \
                src.span(stmt).start > src.span(here).start
    return False


def reorder_update(h: InplaceHazard, src: Source) -> Fix | None:
    """Move the update statement after the backward, when both are in one block of the
    same function (all backwards first, then the steps)."""
    bump_frames = dict(h.bump[1])
    for fid, stmt, func in reversed(h.inner_frames):
        step = bump_frames.get(fid)
        if step is None or func is None or not isinstance(step, cst.SimpleStatementLine):
            continue
        if not m.matches(step, m.SimpleStatementLine(body=[m.Expr(m.Call(
                func=m.Attribute(attr=m.Name("step"))))])):
            # (a call of a helper that steps, ``self.update_netg()``, may also compute
            # what the statements it would be moved past read: not moved)
            return None
        after = _sibling_containing(func, step, stmt, src)
        if after is None:
            return None
        return Fix(Message(N_("Move the update on line {line} after this backward (all "
                              "backwards first, then the steps)"),
                           {"line": src.line_ref(step)}),
                   (src.delete_lines(step),
                    src.insert_line_after(after, src.statement_code(step).strip())),
                   preferred=True)
    return None


def _sibling_containing(func, first, target, src: Source):
    """The statement of ``first``'s block that comes after it and contains ``target``."""
    tspan = src.span(target)
    for block in m.findall(func, m.IndentedBlock()):
        body = list(block.body)
        if first in body:
            for st in body[body.index(first) + 1:]:
                s = src.span(st)
                if s.start <= tspan.start and tspan.end <= s.end:
                    return st
            return None
    return None
