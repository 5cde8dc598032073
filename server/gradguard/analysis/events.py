"""The events the interpreter emits for the rules: a freed graph walked again
(:class:`Hazard`), a saved tensor or parameters changed in place (:class:`InplaceHazard`),
a graph kept alive by an accumulator (:class:`Accumulation`), a discarded ``detach()``
(:class:`DiscardedDetach`), a backward of a value known to have no graph
(:class:`NoGraph`), and what GG402 weighs: every backward (:class:`Backward`) and every
optimizer step (:class:`Step`)."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from gradguard.analysis.frames import LoopCtx


@dataclass
class Hazard:
    """A backward (or ``autograd.grad``) that walks segments an earlier backward freed.

    ``kind``: "same" (freed earlier in the same iteration: GG101), "carried" (freed in an
    earlier iteration, created inside the loop: GG102) or "reused" (created before the
    loop, freed in an earlier iteration: GG103). ``loop``: the loop concerned.
    ``segs``: the freed segments walked again; ``frees``: their :class:`Free` records.
    ``root``: the expression the backward runs from; ``frames``: the analysis frames at the time, as
    ``(frame_id, current statement, function node)``; ``env``/``freed``: the state then;
    ``steps``: parameter updates so far; ``val_segs``: all segments of the root;
    ``loops``: the loops being analysed, outermost first; ``entry_env``: the env at the
    start of the pass of ``loop`` the hazard happened in (what crossed from the earlier
    iteration). The finding's site is the last frame of ``frames`` (a wrapper that
    backwards its parameter is reported at its call). ``back``: the index of its backward
    in the interpreter's ``backwards``.
    """

    kind: str
    node: cst.CSTNode
    root: cst.CSTNode | None
    segs: tuple
    frees: tuple
    loop: LoopCtx | None
    frames: tuple
    env: dict
    freed: dict
    steps: int
    val_segs: frozenset
    loops: tuple = ()
    entry_env: dict | None = None
    back: int = -1


@dataclass
class InplaceHazard:
    """A backward that needs a tensor changed in place after a node saved it.

    ``kind``: "param" (module parameters updated: ``optimizer.step()``, ``p.clamp_()``:
    GG201) or "tensor" (GG202). ``node``: the backward as reported (a wrapper's call
    site), ``inner``: the backward call itself; ``seg``: the segment that saved the
    tensor; ``store``: its storage; ``bump``: ``(in-place node, (frame id, stmt) path)``
    of the in-place change that moved it past the saved version, ``bump_top`` the
    top-level statement that change is in; ``frames``/``env`` as in :class:`Hazard` (up to
    the reported site); ``inner_frames``: all frames at the backward itself; ``stamp``: the
    loop passes at the backward.
    """

    kind: str
    node: cst.CSTNode
    inner: cst.CSTNode
    root: cst.CSTNode | None
    seg: object
    store: object
    bump: tuple
    frames: tuple
    env: dict
    inner_frames: tuple = ()
    stamp: tuple = ()
    bump_top: object = None


@dataclass
class Accumulation:
    """``acc += t`` / ``acc.append(t)`` in a loop, where ``acc`` outlives the iteration and
    ``t`` carries a graph. ``segs``: the graphs accumulated; ``passes``: the loop passes at
    whose start ``acc`` already existed (so it outlives those iterations); ``eval_mode``:
    the function had called ``model.eval()`` (an evaluation loop); ``live``: some value
    was accumulated whose graph no backward had surely freed (on every path: a backward
    through it could still succeed: a loss summed over chunks for the caller to
    backpropagate); ``heads``: the segments that made the accumulated values themselves
    (:func:`~gradguard.analysis.values.heads`): a backward that frees, or a return,
    consumes the accumulation only when it holds one of them, not when it merely shares
    a graph with them (a GAN's `errD` accumulated, `errG` backpropagated through the same
    `fake`), and, when the accumulator is a variable or attribute (``key``), only when
    it also holds what the accumulator holds now: ``loss_sum += loss; loss.backward()``
    frees the saved tensors, yet ``loss_sum`` keeps every iteration's nodes; a backward
    that keeps its graph consumes what shares it."""

    node: cst.CSTNode
    acc: cst.CSTNode
    value: cst.CSTNode | None
    segs: frozenset
    passes: frozenset
    eval_mode: bool
    frames: tuple
    live: bool = False
    heads: frozenset = frozenset()
    key: tuple | None = None
    container: bool = False  # the value accumulated is a tuple, list or dict (no .detach())
    # a statement that empties the accumulator on some iterations of the loops
    # ``emptied_passes`` (``if i % 100 == 0: total = 0``): graphs pile up only until then
    emptied: cst.CSTNode | None = None
    emptied_passes: frozenset = frozenset()
    # the value is a dict, list or tuple display: its elements that hold the graphs
    # (``{"epoch": epoch, "vali": vali_loss}``: ``vali_loss``), each a tensor
    parts: tuple = ()


@dataclass
class DiscardedDetach:
    """An expression statement ``x.detach()``: the detached tensor is thrown away."""

    stmt: cst.SimpleStatementLine
    call: cst.Call
    target: cst.BaseExpression
    loop_target: bool
    func: cst.CSTNode | None


@dataclass
class NoGraph:
    """A backward (or ``autograd.grad``) of a tensor known to have no graph and not to be
    a grad leaf (GG401). ``node``: the backward as reported (a wrapper's call site);
    ``inner``: the backward call; ``root``: the expression the backward runs from there; ``cuts``: the
    :class:`~gradguard.analysis.values.Cut` records of its history (why it has no
    graph); ``frames``/``env`` as in :class:`Hazard`; ``plain_flags``: the statements
    that set ``requires_grad = True`` on a module that is frozen here (a plain attribute
    of the module object: ``requires_grad_(True)`` is what unfreezes it)."""

    node: cst.CSTNode
    inner: cst.CSTNode
    root: cst.CSTNode | None
    cuts: tuple
    frames: tuple
    env: dict
    plain_flags: tuple = ()


@dataclass(frozen=True)
class Backward:
    """A backward: ``stamp`` (loop passes then), ``reach`` (modules whose parameters its
    graph reaches), ``wild`` (it also reaches parameters of a module not known), ``src``
    (the cuts of its root's history, None when not all of it is known); ``silencer``:
    where a root known to have no graph was made a new leaf (``loss.requires_grad_()``),
    so that the backward runs and stops at it, else None; ``returns_grads``: a
    ``torch.autograd.grad``, which sets no ``.grad``; ``cuts``: how many cuts the
    interpreter had logged before it (``cut_log``: those after it are not on its way)."""

    node: cst.CSTNode
    stamp: tuple
    reach: frozenset
    wild: bool
    src: tuple | None
    silencer: cst.CSTNode | None = None
    leaves: frozenset = frozenset()  # the storages of the leaves its graph reaches
    returns_grads: bool = False
    cuts: int = 0


@dataclass(frozen=True)
class Step:
    """An optimizer step: ``trained`` (:class:`~gradguard.analysis.frames.Trained`, or
    None when not known), ``stamp`` (loop passes then), ``optimizer``: the receiver;
    ``backs``: how many backwards had run before it (the last is its own, usually);
    ``cleared``: ``(call, statement)`` of the ``zero_grad()`` after which no backward (and
    no code the engine does not follow that was given a graph) ran before this step, else
    None; ``stmt``: the step's statement; ``since``: ``((call, statement, backwards run
    then), modules)`` when the gradients are known: the last ``zero_grad()`` that set
    them to None and the modules the backwards since reached, else None; ``frames``: the
    analysis frames at the step, as in :class:`Hazard` (where a step in an imported
    module was reached from this file); ``rebound``: ``(name, statement, False)`` when a
    name the optimizer took the parameters of (``SGD(rnn.parameters())``) holds another
    module now, bound by that statement (``rnn = RNN(...)`` after the optimizer was
    built); ``(name, frames, in_loop)`` when layers of it were built again
    (``Interpreter._rebound_model``)."""

    node: cst.CSTNode
    trained: object
    stamp: tuple
    optimizer: cst.CSTNode
    backs: int = 0
    cleared: tuple | None = None
    stmt: cst.CSTNode | None = None
    since: tuple | None = None
    frames: tuple = ()
    rebound: tuple | None = None
