"""What the GG1xx rules share: naming a hazard's graph, its related locations, and the
fixes more than one rule offers (``retain_graph=True``, recomputing a value)."""

from __future__ import annotations

import functools
import weakref
from collections import defaultdict

import libcst as cst
import libcst.matchers as m

from gradguard.analysis.interp import Hazard, Interpreter
from gradguard.analysis.model import Edit, Fix, Message, Related, Span
from gradguard.analysis.python_semantics import names_read
from gradguard.analysis.source import Source
from gradguard.rules import N_
from gradguard.rules.retain_costs import RETAIN_COSTS, RETAIN_STEPPED


def once_per_run(verdicts):
    """``verdicts(interp)`` worked out once per interpreter run: the engine asks a rule
    whether a root has anything to report (:func:`registry.has_events`) and then builds
    its findings from the same verdicts."""
    memo: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    @functools.wraps(verdicts)
    def once(interp: Interpreter):
        if interp not in memo:
            memo[interp] = verdicts(interp)
        return memo[interp]
    return once


class NameIndex(cst.CSTVisitor):
    """The ``Name`` nodes under one node, by identifier, and its assignments and ``for``
    loops (one walk, where a matcher ``findall`` per name would walk once per name)."""

    def __init__(self) -> None:
        self.names: dict[str, list[cst.Name]] = defaultdict(list)
        self.assigns: list[cst.Assign] = []
        self.fors: list[cst.For] = []

    def visit_Name(self, node: cst.Name) -> None:
        self.names[node.value].append(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        self.assigns.append(node)

    def visit_For(self, node: cst.For) -> None:
        self.fors.append(node)

    @staticmethod
    def of(node: cst.CSTNode) -> "NameIndex":
        index = NameIndex()
        node.visit(index)
        return index

    def extend(self, other: "NameIndex") -> None:
        """Add what ``other`` (of a node after this one's) holds, in source order."""
        for name, nodes in other.names.items():
            self.names[name].extend(nodes)
        self.assigns.extend(other.assigns)
        self.fors.extend(other.fors)


def name_index(node: cst.CSTNode, src: Source) -> NameIndex:
    """The :class:`NameIndex` of ``node``, built once per node (:meth:`Source.node_fact`);
    the module's once per text, joined from its top-level statements' (each kept across
    texts, :meth:`Source.per_statement`): the same lists, in the same order, as one walk
    over the module."""
    if node is not src.module:
        return src.node_fact(NameIndex.of, node)
    key = ("names", node)
    index = src.memo.get(key)
    if index is None:
        index = NameIndex()
        for st in node.body:
            index.extend(src.per_statement("names", st, NameIndex.of))
        src.memo[key] = index
    return index


def tensor_name(h: Hazard, src: Source) -> str:
    """The expression the backward runs from, as written (``loss``, ``d_loss``)."""
    return src.code(h.root, 40) if h.root is not None else "tensor"


def graph_seg(h: Hazard, interp: Interpreter):
    """The freed segment that best names the graph: the first one built in the function
    the user is reading (the loop's, else the backward's) and bound to a variable, else
    the first one bound to a variable, else the first one built."""
    segs = [interp.segs[s] for s in h.segs]
    home = h.loop.frame if h.loop is not None else h.frames[-1][0]
    for ok in (lambda s: s.frame == home and bound_name(s) is not None,
               lambda s: bound_name(s) is not None):
        for seg in segs:
            if ok(seg):
                return seg
    return segs[0]


def bound_name(seg) -> cst.BaseExpression | None:
    """The target a segment's statement assigned it to (``fake = netG(z)`` -> ``fake``)."""
    stmt = seg.stmt
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        small = stmt.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            t = small.targets[0].target
            if isinstance(t, (cst.Name, cst.Attribute)):
                return t
            if isinstance(t, cst.Tuple) and t.elements:
                return t
        if isinstance(small, cst.AugAssign) and isinstance(small.target, (cst.Name, cst.Attribute)):
            return small.target
    return None


def graph_site(seg, src: Source, h: Hazard, prefer=()) -> tuple[str, cst.CSTNode]:
    """How messages name a segment, and where they say it was built: the variable it was
    assigned to when that happened in a function still running at the hazard (the user
    sees it; of a tuple target, the first name in ``prefer``, else the first that holds
    it), else the attribute it was assigned to when an object still holds it, else the
    earliest variable of the function the user reads (the loop's, else the
    backward's) that holds it and whose statement built it (one in ``prefer`` first),
    else any that holds it, else its own expression."""
    target = bound_name(seg)
    active = {fid for fid, _, _ in h.frames}
    if target is not None and not isinstance(target, cst.Tuple) and seg.frame in active:
        return src.code(target, 40), seg.node
    if isinstance(target, cst.Tuple) and seg.frame in active:
        names = [e.value.value for e in target.elements if isinstance(e.value, cst.Name)]
        holding = [n for n in names if (b := h.env.get((seg.frame, n))) is not None and
                   seg.id in b.val.segs]
        pick = next((n for n in holding if n in prefer), holding[0] if holding else None)
        if pick is not None:
            return pick, seg.node
    if h.kind == "reused" and isinstance(target, cst.Attribute) and any(
            key[0] == "@" and seg.id in b.val.segs for key, b in h.env.items()):
        # kept on an object by a function that returned (``self.cached = self.cnn(ids)``
        # in ``__init__``): that attribute, where it was built
        return src.code(target, 40), seg.node
    home = h.loop.frame if h.loop else h.frames[-1][0]
    found = [(b.stmt is not seg.stmt, src.span(b.stmt).start, key[1], b.stmt)
             for key, b in h.env.items()
             if key[0] == home and seg.id in b.val.segs and
             isinstance(b.stmt, cst.SimpleStatementLine)]
    # a loop variable that holds it (``for obs_b, old_logp_b in batches(...)``): given the
    # graph by the loop's header, before anything in the body was computed from it
    given = [(key[1], b.stmt) for key, b in h.env.items()
             if key[0] == home and seg.id in b.val.segs and isinstance(b.stmt, cst.For) and
             key[1] in names_read(b.stmt.target) and
             all(src.span(b.stmt).start < t[1] for t in found)]
    if given and not any(t[2] in prefer for t in found):
        name, stmt = min(given, key=lambda t: (t[0] not in prefer, src.span(t[1]).start))
        return name, stmt.iter
    if found:
        # the variable the message names as the carrier, if it holds it
        named = [t for t in found if t[2] in prefer]
        _, _, name, stmt = min(named or found, key=lambda t: t[:2])
        if not may_build_graph(stmt):
            # ``feats = {}``: no call or operation there built a graph (a forward hook
            # stored it in the dict later): name the operation itself
            return name, seg.node
        return name, stmt
    if target is not None and not isinstance(target, cst.Tuple):
        return src.code(target, 40), seg.node
    return src.code(seg.node, 40), seg.node


def related(h: Hazard, interp: Interpreter, src: Source, prefer=()) -> tuple[Related, ...]:
    """Where the graph was built and where it was freed (``prefer``: the names to call it
    by, see :func:`graph_site`)."""
    seg = graph_seg(h, interp)
    free = h.frees[h.segs.index(seg.id)]
    label, node = graph_site(seg, src, h, prefer)
    return (
        Related(src.span(node), Message(N_("graph of `{graph}` built here"), {"graph": label})),
        Related(src.site(free.node), Message(N_("this backward freed it"), {}), backward=True),
    )


def free_line(h: Hazard, interp: Interpreter, src: Source) -> int | str:
    """The line of the backward that freed the graph."""
    seg = graph_seg(h, interp)
    return src.line_ref(h.frees[h.segs.index(seg.id)].node)


def through(segs, interp: Interpreter, src: Source) -> str:
    """The calls that built the segments ``segs`` and saved tensors for them, as written
    (``self.rnn``, ``netG``, ``torch.tanh``), in the order they ran; at most three, empty
    when no call is known (a graph of operators only)."""
    calls = []
    for sid in sorted(segs):
        seg = interp.segs[sid]
        if seg.saves and isinstance(seg.node, cst.Call):
            callee = f"`{src.code(seg.node.func, 30)}`"
            if callee not in calls:
                calls.append(callee)
    return ", ".join(calls[:3])


def retain_cost(h: Hazard, interp: Interpreter, src: Source, segs=None,
                until: bool = False, prefer=()) -> dict:
    """The arguments of a message (:mod:`gradguard.rules.retain_costs`) saying what
    retain_graph=True keeps in memory for hazard ``h``: the graph (the segment that names
    it, and where it was built), the calls that built ``segs`` (by default the freed
    segments walked again) as ``through`` when any is known, and with ``until`` the
    backward that walks the graph again (``until_line``); ``prefer``: the names to call
    the graph by (see :func:`graph_site`)."""
    label, built = graph_site(graph_seg(h, interp), src, h, prefer)
    args = {"graph": label, "built_line": src.line_ref(built)}
    if until:
        args["until_line"] = src.line_ref(h.node)
    calls = through(h.segs if segs is None else segs, interp, src)
    if calls:
        args["through"] = calls
    return args


def module_name(interp: Interpreter, ref) -> str:
    """What the code calls module ``ref``: the name it was bound to, else its class."""
    name = interp.module_names.get(ref)
    if name is not None:
        return name[0]
    return ref[1] if ref[0] == "nn" else str(ref[-1]).rsplit(".", 1)[-1]


def step_between(h: Hazard, interp: Interpreter):
    """The first optimizer step (its :class:`~gradguard.analysis.events.Step`) between the
    backward that freed the graph and the hazard that changes parameters of a module
    whose call in the graph saved them (``optimizer.step()`` bumps their version), else
    None."""
    saved = {st[1] for sid in h.segs for st, _ in interp.segs[sid].saved if st[0] == "param"}
    span = slice(h.frees[0].steps, h.steps)
    for rec, trained in zip(interp.step_recs[span], interp.step_log[span]):
        if saved & interp._descendants(frozenset(trained.refs)):
            return rec
    return None


def steps_spare_graph(h: Hazard, interp: Interpreter) -> bool:
    """Whether every optimizer step between the backward that freed the graph and the
    hazard is known to leave alone every parameter the hazard's backward walks (each
    optimizer trains known modules' ``parameters()`` only, none of them or their
    submodules reached by the root's graph, which reaches no module the engine does not
    know): ``retain_graph=True`` on the first backward then lets the second run (a
    value head stepped before the policy loss, built on a detached value, backpropagates)."""
    mods, wild = interp.reach_of(h.val_segs)
    if wild:
        return False
    span = slice(h.frees[0].steps, h.steps)
    steps = interp.step_log[span]
    return len(steps) == h.steps - h.frees[0].steps and all(
        t is not None and t.pure and t.refs and
        not interp._descendants(frozenset(t.refs)) & mods for t in steps)


def retain_fix(h: Hazard, interp: Interpreter, src: Source, preferred: bool,
               prefer=()) -> Fix | None:
    """``retain_graph=True`` on the backward that freed the graph (in a wrapper of this
    file that backwards its argument, the backward inside it; the call must be a
    tensor's ``backward`` or ``torch.autograd.backward/grad``, which take the keyword),
    its title saying what it keeps in memory and what later backwards run through, or
    that an optimizer step in between makes the later backward fail anyway (``prefer``:
    as for :func:`retain_cost`)."""
    free = h.frees[0]
    call = free.node
    if free.inner is not None and src.span(free.inner).path is None:
        call = free.inner  # (a wrapper of this file that backwards its argument: inside it)
    if not isinstance(call, cst.Call):
        return None
    name = call.func.attr.value if isinstance(call.func, cst.Attribute) else ""
    if name not in ("backward", "grad"):
        return None
    kind = "kept" if preferred else h.kind
    step = None if preferred else step_between(h, interp)
    args = retain_cost(h, interp, src, until=kind in ("kept", "same") or step is not None,
                       prefer=prefer)
    if step is not None:
        args.update(optimizer=src.code(step.optimizer, 30), step_line=src.line_ref(step.node))
        msgid = RETAIN_STEPPED["through" in args][0]
    else:
        msgid = RETAIN_COSTS[(kind, "through" in args)][0]
    title = Message(msgid, {"line": src.line_ref(call), **args})
    return Fix(title, (src.add_keyword(call, "retain_graph", "True"),), preferred,
               "safe" if preferred else "unsafe")


def one_line_assignment(stmt) -> bool:
    """Whether ``stmt`` is a line holding a single ``targets = value`` assignment (what a
    fix can copy, move or re-run as a whole)."""
    return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and \
        isinstance(stmt.body[0], cst.Assign)


def target_names(stmt) -> list[str]:
    """The names a one-line assignment binds (``logits, values = net(states)``)."""
    return [n.value for t in stmt.body[0].targets for n in m.findall(t.target, m.Name())]


def may_build_graph(node: cst.CSTNode) -> bool:
    """Whether evaluating ``node`` runs a call or an operation (what adds to a graph);
    ``{}``, ``[]``, ``None`` and names do not."""
    return bool(m.findall(node, m.Call() | m.BinaryOperation() | m.Subscript()))


def recompute_chain(h, src: Source, stale: set):
    """The one-line assignments of the backward's function that built the stale part
    of its root (those binding a value with a segment of ``stale``, and the stale ones
    they read in turn), in source order, and the segments of what they read as it is:
    ``(statements, segments)``; None when one of them cannot be run again just before
    the backward (not a single assignment, after it, or in a branch of its own)."""
    frame_id, here, func = h.frames[-1]
    if here is None or h.root is None:
        return None
    here_start = src.span(here).start
    chain, todo, seen, reach = [], [h.root], set(), set()
    while todo:
        expr = todo.pop()
        if _stale_attribute(expr, h.env, frame_id, stale):
            return None  # ``loss + self.reg_loss`` built once elsewhere: not rebuilt here
        for name in m.findall(expr, m.Name()) if not isinstance(expr, cst.Name) else [expr]:
            if name.value in seen:
                continue
            seen.add(name.value)
            b = h.env.get((frame_id, name.value)) or h.env.get(("G", name.value))
            if b is None or not stale & b.val.segs:
                if b is not None:
                    reach |= b.val.segs   # read as it is: not recomputed
                continue
            stmt = b.stmt
            if not one_line_assignment(stmt) or src.span(stmt).start >= here_start or \
                    not on_every_path(func if func is not None else src.module, stmt, here):
                return None
            assign = stmt.body[0]
            if not may_build_graph(assign.value):
                return None  # ``losses = []``: the graph was put in it elsewhere
            if set(target_names(stmt)) & {n.value for n in m.findall(assign.value, m.Name())}:
                return None  # ``h = cell(x, h)``: running it again is another step
            if stmt not in chain:
                chain.append(stmt)
                todo.append(stmt.body[0].value)
    if not chain:
        return None
    return sorted(chain, key=lambda s: src.span(s).start), reach


def _stale_attribute(expr, env: dict, frame_id, stale: set) -> bool:
    """Whether ``expr`` reads an attribute of an object (``self.reg_loss``) whose value
    holds a segment of ``stale``."""
    for attr in m.findall(expr, m.Attribute(value=m.Name())):
        b = env.get((frame_id, attr.value.value)) or env.get(("G", attr.value.value))
        ref = b.val.ref if b is not None else None
        if ref is None or isinstance(ref, str):
            continue
        held = env.get(("@", ref, attr.attr.value))
        if held is not None and stale & held.val.segs:
            return True
    return False


def on_every_path(func: cst.CSTNode, stmt: cst.CSTNode, here: cst.CSTNode) -> bool:
    """Whether no branch holds ``stmt`` without also holding ``here``: ``d_loss`` assigned
    in each arm of an ``if`` is not on every path to the line after it (neither assignment
    alone is what reaches it), a statement of an earlier loop's body is."""
    path = path_to(func, stmt)
    return path is not None and all(
        path_to(node, here) is not None for node in path
        if isinstance(node, (cst.If, cst.Else, cst.Try, cst.ExceptHandler, cst.MatchCase)) or
        type(node).__name__ in ("TryStar", "ExceptStarHandler"))


def next_statement(top: cst.CSTNode, stmt: cst.CSTNode):
    """The statement after ``stmt`` in its block (``top``: a node that holds it), None at
    the block's end or when ``stmt`` is not found."""
    path = path_to(top, stmt)
    block = path[-2] if path is not None and len(path) >= 2 else None
    body = list(getattr(block, "body", ()))
    i = next((k for k, st in enumerate(body) if st is stmt), None)
    return body[i + 1] if i is not None and i + 1 < len(body) else None


_BLOCKS: dict = {}  # id(module) -> (module, index): the few modules analysed last


def block_of(module: cst.Module, stmt: cst.CSTNode) -> cst.IndentedBlock | None:
    """The indented block whose body holds the statement ``stmt`` (None at module level),
    from an index of the module's blocks built once per module (a libcst Module takes no
    weak reference: the last few are kept)."""
    kept = _BLOCKS.get(id(module))
    if kept is None or kept[0] is not module:
        if len(_BLOCKS) >= 4:
            _BLOCKS.pop(next(iter(_BLOCKS)))
        kept = _BLOCKS[id(module)] = (module, {id(st): b for b in m.findall(
            module, m.IndentedBlock()) for st in b.body})
    block = kept[1].get(id(stmt))
    return block if block is not None and any(st is stmt for st in block.body) else None


def path_to(node: cst.CSTNode, target: cst.CSTNode) -> list | None:
    """The nodes from ``node`` down to ``target`` (both included), or None."""
    todo = [(node, [node])]
    while todo:
        n, path = todo.pop()
        if n is target:
            return path
        todo.extend((c, path + [c]) for c in n.children)
    return None


def reads_freed(expr: cst.CSTNode, h: Hazard, interp: Interpreter, frame_id: str) -> bool:
    """Whether recomputing ``expr`` now would read a value whose graph is freed."""
    for name in m.findall(expr, m.Name()):
        for key in ((frame_id, name.value), ("G", name.value)):
            b = h.env.get(key)
            if b is not None:
                if any(s in h.freed and interp.segs[s].saves for s in b.val.segs):
                    return True
                break
    return False


def operand_at_site(h: Hazard, interp: Interpreter, seg, node, segs):
    """Where a fix that cuts the operand ``node`` (carrying ``segs``) of segment ``seg``
    is written: ``(node, segs)`` itself when ``seg`` was built in a frame active at the
    hazard (the training code), else the argument of the call in such a frame that led
    into the callee building it, the one carrying those segments (``netD(fake)``, not
    ``img.view(...)`` inside ``netD.forward``, which every caller runs); None when there
    is no such call."""
    active = {fid for fid, _, _ in h.frames}
    fid = seg.frame
    while fid not in active:
        site = interp.call_sites.get(fid)
        if site is None:
            return None
        fid, call, args = site
        carried = [(n, s & segs) for n, s in args if s & segs]
        if not carried:
            return None
        node, segs = carried[0]
    return node, segs


def frame_stmt(h: Hazard, frame_id: str):
    """The statement the frame ``frame_id`` was executing when the hazard happened."""
    for fid, stmt, _ in h.frames:
        if fid == frame_id:
            return stmt
    return None


def trained_by_no_optimizer(segs, interp: Interpreter) -> bool:
    """Whether no optimizer that stepped trains what the segments read: no parameters of
    a module (or of one it is part of) any optimizer was given, no tensor one was given
    itself. False when some optimizer's parameters are not known, or none stepped."""
    steps = interp.step_log
    if not steps or any(t.names is None for t in steps):
        return False
    trained = interp._descendants(frozenset().union(*(t.refs for t in steps)))
    stores = frozenset().union(*(t.stores for t in steps))
    # (the modules whose parameters the graph reaches, not only those it saved: a Linear
    # on an input without grad saves no weight, yet its weight gets a gradient)
    mods, wild = interp.reach_of(segs)
    if wild or interp._descendants(mods) & trained:
        return False
    for sid in segs:
        seg = interp.segs[sid]
        if seg.leaves & stores or any(st[0] == "param" and st[1] in trained
                                      for st, _ in seg.saved):
            return False
    return True


def cut_removal(node: cst.CSTNode, src: Source) -> Edit | None:
    """The edit that takes a ``.detach()`` / ``.data`` cut off its receiver (``x.detach()``
    -> ``x``), when both are in this file; None for any other node."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
            not node.args and node.func.attr.value == "detach":
        recv = node.func.value
    elif isinstance(node, cst.Attribute) and node.attr.value == "data":
        recv = node.value
    else:
        return None
    r, whole = src.span(recv), src.span(node)
    if r.path is not None or whole.path is not None:
        return None
    return Edit(Span(r.end, whole.end), "")


def detach_uses(h: Hazard, interp: Interpreter, src: Source, second: bool = True) -> Fix | None:
    """The preferred fix of a graph freed by one loss and walked again by another (GG101;
    GG103: the same loss, an iteration later). GAN shape: the freed tensor (``fake = netG(z)``) is an input of module calls or
    arithmetic operands in both losses (``netD(fake)``, and a gradient penalty's
    ``gp(netD, real, fake)``). Detach it at every use in the loss that must not train
    what built it: the first one when every optimizer that stepped between the two
    backwards trains neither that module nor a tensor that graph reads, and still gets a
    gradient from the first loss once it is cut (discriminator step first; a temperature
    ``Adam([log_alpha])`` whose loss multiplies ``log_alpha`` itself); else the second
    one, when one of its uses there is a module call or an operation with a trainable
    operand of its own (the second loss then still trains that; not when ``second`` is
    False: in GG103 it is the first one's code, run again). A use left attached would
    walk (or free) the graph all the same."""
    hit = set(h.segs)
    firsts, seconds = {}, {}
    used = set()  # the segments recorded as uses: what is made of them is no use itself
    # the operations that built the freed graph itself are none of its uses
    inner = frozenset().union(*(interp.segs[s].parents for s in hit))
    trains = False
    for sid in sorted(interp.segs):
        seg = interp.segs[sid]
        for node, segs in seg.inputs:
            if not segs & hit or sid in hit or sid in inner or segs & used:
                continue  # (``gp``, made of ``fake``, is cut where it reads ``fake``)
            site = operand_at_site(h, interp, seg, node, segs & hit)
            if site is None:
                continue
            if sid in h.val_segs and sid not in h.freed:
                seconds.setdefault(id(site[0]), site)
                trains = trains or trains_itself(seg)
            elif h.freed.get(sid) is h.frees[0]:
                firsts.setdefault(id(site[0]), site)
            else:
                continue
            used.add(sid)
    if not seconds:
        return None
    # (not when the second loss's gradients into what built the graph train it too, unless
    # a step in between makes retain_graph=True fail as well: cutting them is then the
    # one change that runs, and what built the graph still learns from the first loss)
    target = list(seconds.values()) if trains and second and \
        (not _grads_train(interp, hit, h.back) or step_between(h, interp) is not None) \
        else None
    if firsts:
        producer = interp.segs[min(next(iter(seconds.values()))[1])].label
        leaves = frozenset().union(*(interp.segs[s].leaves for s in hit))
        own = frozenset().union(*(seg.leaves for sid, seg in interp.segs.items()
                                  if sid not in hit and h.freed.get(sid) is h.frees[0]))
        between = interp.step_log[h.frees[0].steps:h.steps]
        stepped = interp._descendants(frozenset().union(*(t.refs for t in between)))
        if between and all(t.names is not None and producer not in t.names and
                           not t.stores & leaves and (t.names or t.stores & own)
                           for t in between) and \
                not any(st[0] == "param" and st[1] in stepped
                        for s in hit for st, _ in interp.segs[s].saved) and \
                not _grads_train(interp, hit, h.frees[0].back):
            target = list(firsts.values())
    if target is None or any(isinstance(node, (cst.Tuple, cst.List, cst.Dict, cst.Set))
                             for node, _ in target):
        return None  # (a tuple handed to a model has no ``.detach()``)
    nodes = sorted((node for node, _ in target), key=lambda n: (src.span(n).path or "",
                                                                 src.span(n).start))
    args = {"name": ", ".join(dict.fromkeys(src.code(n, 40) for n in nodes)),
            "line": src.line_ref(nodes[0])}
    last = src.line_ref(nodes[-1])
    message = Message(N_("Detach `{name}` on line {line}: that loss must not backpropagate "
                         "into the graph that built it"), args) if last == args["line"] else \
        Message(N_("Detach `{name}` where that loss reads it, on lines {line} to {last_line}: it "
                   "must not backpropagate into the graph that built it"),
                {**args, "last_line": last})
    return Fix(message, tuple(src.append_to(n, ".detach()") for n in nodes), preferred=True)


def _grads_train(interp: Interpreter, hit: set, index: int) -> bool:
    """Whether the gradients the backward ``index`` (of ``interp.backwards``) gives the
    modules that built the freed graph ``hit`` are used: a later step updates one of them
    with no ``zero_grad()`` since that backward (a shared feature network stepped once
    after the value and the policy losses, as an A2C's is: detaching it in either loss
    would change what it learns). A
    GAN's generator step comes after its ``zero_grad()``: the discriminator loss's
    gradients into it are thrown away, and detaching them loses nothing."""
    builders = interp.reach_of(hit)[0]
    if not builders or index < 0:
        return False
    for st in interp.step_recs:
        if st.backs <= index or st.trained is None or \
                not interp._descendants(frozenset(st.trained.refs)) & builders:
            continue
        return st.since is None or st.since[0][2] <= index
    return False


def trains_itself(seg) -> bool:
    """Whether a segment reads trainable tensors other than its graph inputs: a module's
    parameters, or a leaf that requires grad as an operand."""
    return bool(seg.leaves) or any(st[0] == "param" for st, _ in seg.saved)
