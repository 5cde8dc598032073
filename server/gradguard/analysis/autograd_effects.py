"""Autograd effects: graph segments, what backward walks and frees, version counters of
saved tensors, and the events they raise (DESIGN.md section 1; PyTorch:
torch/csrc/autograd/engine.cpp, saved_variable.cpp)."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from gradguard.analysis import torchapi as T
from gradguard.analysis.events import Accumulation, Backward, Hazard, InplaceHazard, NoGraph
from gradguard.analysis.frames import arg_truth, is_global, walk_scope
from gradguard.analysis.python_semantics import names_read
from gradguard.analysis.values import (EMPTY, MODEL_PART, Binding, Cut, Free, Seg, Val,
                                       dict_items, heads, join_all, made_tensor, merge_src,
                                       store_parts)


class AutogradEffects:
    """Part of :class:`gradguard.analysis.interp.Interpreter` (a mixin over its state)."""

    def stamp(self) -> tuple:
        return tuple(p for _, p in self.loop_stack)

    def new_seg(self, node, label: str, parents: frozenset, saves: bool = True,
                inputs: tuple = (), saved: tuple = (), leaves: frozenset = EMPTY, ins=(),
                module=False) -> frozenset:
        """Create a segment at ``node`` depending on ``parents``; returns the new set.
        ``saved`` lists the ``(store, version)`` of the tensors its backward needs,
        ``leaves`` the storages of its operands that are leaves requiring grad.
        ``ins``: the input values (whose parameters this node's graph reaches);
        ``module``: for a module call, the module's ref (None: a module not known)."""
        sid = next(self._ids)
        self.segs[sid] = Seg(sid, node, label, self.stamp(), saves, inputs, self.frame.stmt,
                              self.frame.id, saved, self.top(), leaves, parents)
        for store, _ in saved:
            self.saved_by.setdefault(store, []).append(sid)
        params, wild = set(), False
        if module is not False:
            if isinstance(module, tuple):
                params.add(module)
            else:
                wild = True
        for v in _tensors_of(ins):
            st = v.store
            if isinstance(st, tuple) and st[0] == "param":
                params.add(st[1])
            elif v.leaf and not made_tensor(st):
                # a grad leaf that is no tensor of a factory: some module's parameter
                wild = True
        if params or wild:
            self.seg_reach[sid] = (frozenset(params), wild)
        return parents | {sid}

    def reach_of(self, segs) -> tuple:
        """``(modules, wild)``: the modules whose parameters a graph of ``segs`` reaches,
        and whether it also reaches parameters of a module not known (``wild``)."""
        params, wild = set(), False
        get = self.seg_reach.get
        for s in segs:
            r = get(s)
            if r is not None:
                params |= r[0]
                wild = wild or r[1]
        return frozenset(params), wild

    def _owners(self, store) -> frozenset:
        """The modules that hold the ``nn.Parameter`` of ``store`` as an attribute (what a
        graph from ``self.weight`` would reach), else nothing."""
        if isinstance(store, tuple) and store[0] == "param":
            return frozenset({store[1]})  # (``self.weight = nn.Parameter(...)``)
        if not isinstance(store, tuple) or store[0] != "p":
            return EMPTY
        return frozenset(k[1] for k, b in self.state.env.items()
                         if k[0] == "@" and b.val.store == store and b.val.kind == "tensor")

    def no_grad_src(self) -> tuple | None:
        """The ``src`` of a value computed with grad mode off: the ``no_grad`` block (or
        decorated function) in force, None when grad mode is off for the engine's own
        reasons (a custom Function's forward)."""
        site = self.no_grad_sites[-1] if self.no_grad_sites else None
        return (Cut("no_grad", site),) if site is not None else None

    def cut_value(self, kind: str, node, recv: Val, result: Val) -> Val:
        """``result`` (of ``.detach()``, ``.data``, ``.item()``...) known to have no graph,
        cut at ``node`` from ``recv``; a cut of a graph is logged for GG402."""
        reach = self.reach_of(recv.segs)[0] if recv.segs else self._owners(recv.store)
        freed = self.state.freed
        leaves = self.leaves_of([recv])
        cut = Cut(kind, node, recv.grad, reach,
                  any(s in freed and self.segs[s].saves for s in recv.segs), leaves, recv.segs)
        if reach or leaves:
            self.cut_log.append((cut, self.stamp()))
        return Val(result.kind, EMPTY, False, result.ref, None, None, result.store,
                   src=(cut,))

    def leaves_of(self, vals) -> frozenset:
        """The storages of the leaves that require grad ``vals`` are (the elements of a
        list or tuple of known ones) or their graphs reach."""
        out = set()
        for v in _tensors_of(vals):
            if v.leaf and v.store is not None:
                out.add(v.store)
            for s in v.segs:
                out |= self.segs[s].leaves
        return frozenset(out)

    def made_leaf(self, val: Val, node, store) -> None:
        """``val`` made a leaf that requires grad at ``node``, as the tensor of ``store``
        (``requires_grad_()``, ``requires_grad = True``, ``torch.tensor(v,
        requires_grad=True)``): when ``val`` was known to have no graph because its
        history cut one (not a fresh factory tensor: a new input), ``node`` silences the
        error a backward of it would raise, and that backward stops at the leaf. Also when
        what ``val`` was made from is not all known: ``requires_grad = True`` raises on a
        tensor that has a graph, so it has none there (GG402 still decides on its own
        whether the step's modules are reached)."""
        if store is not None and not val.segs and not val.leaf and (val.src is None or any(
                c.kind != "factory" or c.had_graph for c in val.src)):
            self.silencers[store] = node

    def fresh_store(self):
        """A new storage identity (the result of an out-of-place operation)."""
        return ("t", next(self._ids))

    def saved_of(self, vals) -> tuple:
        """``(store, version)`` of the tensors among ``vals`` (what a node saves)."""
        versions = self.state.versions
        out = []
        for v in vals:
            for t in (v.elts or ()) if v.kind in ("tuple", "container") else (v,):
                if t.store is not None:
                    out.append((t.store, versions.get(t.store, 0)))
        return tuple(out)

    def op(self, node, label: str, vals, saves=True, inputs: tuple = (), keep=None) -> Val:
        """The result of a differentiable operation on ``vals``: a new segment when any
        input requires grad (and grad mode is on), else a plain tensor. ``saves``: True
        (the node saves its inputs, or only those in ``keep`` when given), "output" (its
        result), "both" (its inputs and its result) or False (nothing)."""
        vals = list(vals)
        if any(v.ref == MODEL_PART for v in vals) and all(
                v.ref == MODEL_PART or v.kind in ("scalar", "none") or
                (v.kind in ("unknown", "tensor") and not v.grad and v.src is None)
                for v in vals):
            # arithmetic of a part of a model's output that may be a number (a sample
            # count) with numbers (or values of no graph: a config's scale): maybe a
            # number still
            return Val("unknown", frozenset().union(*(v.segs for v in vals)),
                       any(v.leaf for v in vals), ref=MODEL_PART)
        store = self.fresh_store()
        if self.no_grad:
            return Val("tensor", store=store, src=self.no_grad_src())
        src = merge_src(vals)
        if not any(v.grad for v in vals):
            return Val("tensor", store=store, src=src)
        parents = frozenset().union(*(v.segs for v in vals))
        if saves == "output":
            saved = ((store, 0),)
        else:
            saved = self.saved_of(vals if keep is None else keep) if saves and not (
                self.autocast and _autocast_lowers(node, label)) else ()
            if saves == "both":
                saved += ((store, 0),)
        leaves = frozenset(v.store for v in _tensors_of(vals) if v.leaf and v.store is not None)
        return Val("tensor", self.new_seg(node, label, parents, bool(saves), inputs, saved,
                                          leaves, ins=vals),
                   store=store, src=src)

    def bump(self, val: Val, node) -> None:
        """An in-place change of ``val``'s storage: bump its version (autograd's
        ``_version``); a node that saved it at an older version fails in backward."""
        st = val.store
        if st is None:
            return
        if st[0] == "join" and all(self.saved_by.get(p) for p in st[1:]):
            # one of these storages on each path (``h`` after ``for t in range(T): h =
            # relu(...)``), every one saved by some node: whichever it is, it changed
            for p in st[1:]:
                self.bump(Val("tensor", store=p), node)
        if st[0] in ("params", "allparams"):  # a parameter of one of these modules
            for r in sorted(st[1], key=repr):
                self.bump(Val("tensor", store=("param", r)), node)
            return
        if st[0] == "param" and self.loop_stack:
            self.param_writes.add(st[1])  # (a step, a soft update's copy_ in a loop)
        version = self.state.versions[st] = self.state.versions.get(st, 0) + 1
        if self.state.version_guards:  # changed on this path, whatever the test said
            self.state.version_guards = frozenset(
                g for g in self.state.version_guards if g[0] != st and g[0][0] != "param")
        bump = self.bumps[(st, version)] = \
            ((node, tuple((f.id, f.stmt) for f in self.frames)), self.top())
        if st[0] == "param":
            # a module's parameters include its submodules' (``seq.parameters()``)
            for r in self._descendants({st[1]}) - {st[1]}:
                sub = ("param", r)
                self.state.versions[sub] = self.state.versions.get(sub, 0) + 1
                self.bumps[(sub, self.state.versions[sub])] = bump
        if st[0] != "param" and self.frame.module_method and self.frame.gid == self.gid:
            # inside an nn.Module method: the graph it builds is meant to be backpropagated,
            # so changing a tensor a live node saved is a hazard already (in a module
            # this file imports, it is reported at the backward here that fails)
            live = {f.id for f in self.frames}
            for sid in self.saved_by.get(st, ()):
                seg = self.segs[sid]
                if seg.frame in live and sid not in self.state.freed and any(
                        s == st and ver < self.state.versions[st] for s, ver in seg.saved):
                    key = (id(node), "inplace", st)
                    # one finding per saved tensor: the first change is what raises
                    first = ("inplace-saved", sid, st)
                    if key not in self._seen_hazards and first not in self._seen_hazards:
                        self._seen_hazards.add(key)
                        self._seen_hazards.add(first)
                        self.mark()
                        hazard = InplaceHazard(
                            "tensor", node, node, None, seg, st, bump[0],
                            tuple((fr.id, fr.stmt, fr.func) for fr in self.frames),
                            dict(self.state.env), bump_top=bump[1])
                        self.inplace.append(hazard)
                        if not is_global(seg.frame):
                            # kept only if the function that built the node lets its
                            # graph out (:meth:`confirm_inplace`)
                            self.pending_inplace.setdefault(seg.frame, []).append(
                                (hazard, (key, first)))
                    break

    def confirm_inplace(self, frame_id: str, result: Val) -> None:
        """The function of frame ``frame_id`` returns ``result``: an in-place change it
        made of a tensor one of its nodes saved is a hazard only if that node is in the
        history of what it lets out (its result, an attribute, a caller's variable). A
        node whose output fed only indices (``dist @ embed`` then ``argmax``) or was
        dropped is never walked by a backward (torch raises nothing)."""
        for hazard, seen in self.pending_inplace.pop(frame_id, ()):
            sid = hazard.seg.id
            if sid in result.segs or any(
                    sid in b.val.segs for k, b in self.state.env.items() if k[0] != frame_id):
                continue
            self.inplace.remove(hazard)
            self._seen_hazards.difference_update(seen)

    def _root_key(self, node):
        """The env key of the variable or attribute an accumulator expression lives in
        (``self.history[k]`` -> the key of ``self.history``)."""
        while node is not None:
            key = self.key_of(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
            if key is not None:
                return key
            node = node.value if isinstance(node, (cst.Subscript, cst.Attribute)) else None
        return None

    def _accumulate(self, node, acc_node, val: Val, value_node, store=None) -> None:
        """Record ``acc += val`` / ``acc.append(val)`` where ``acc`` outlives the loop
        iteration and ``val`` carries a graph: it keeps that graph alive (GG301/GG303)
        unless a later backward consumes it. ``store``: the storage an in-place operation
        changed (``total.add_(loss)``): it outlives the iteration when the tensor was made
        before the loop pass, whatever name holds it now."""
        if not val.segs or not self.loop_stack or self.no_grad or \
                isinstance(value_node, cst.IfExp) or _maybe_numbers(val):
            return  # (a part of a model's output that may be a number: not known)
        ctx, pass_id = self.loop_stack[-1]
        key = self._root_key(acc_node) if acc_node is not None else None
        if store is not None:
            if not _made_before(store, pass_id):
                return
            passes = frozenset(p for _, p in self.loop_stack if _made_before(store, p))
        else:
            key = self._root_key(acc_node)
            if key is None or key not in self.entry_envs.get(pass_id, ()) or key in self.capped:
                return
            # the loops across whose iterations it piles up: the accumulator outlives
            # their iteration (not bound anew in their body, nor holding only what their
            # pass made), and the value holds a graph their pass made
            cur = self.state.env.get(key)
            held = cur.val.segs if cur is not None else EMPTY
            fresh = self.fresh_in.get(key, ())
            # (not across a loop over a few known keys or objects: ``losses[task] = ...``
            # for each of two tasks keeps two graphs, not one per training step)
            passes = frozenset(
                p for c, p in self.loop_stack
                if key in self.entry_envs.get(p, ()) and any(s > p for s in val.segs) and
                not (held and min(held) > p) and p not in fresh and not c.few and
                not self._fresh_each_pass(key, c))
            if not passes:
                return
        if not any(self.segs[s].saves for s in val.segs if any(s > p for p in passes)):
            # what these passes added to the graph saves no tensor (views of a leaf, sums
            # and differences: ``latent = leaf[i].unsqueeze(0) - lr * grad``): holding it
            # keeps a few nodes, not any iteration's activations
            return
        self.mark()
        owner = self.frame.self_obj.ref if self.frame.self_obj is not None else None
        for k, fr in enumerate(reversed(self.frames[1:])):
            b = self.state.env.get((fr.id, value_node.value)) \
                if isinstance(value_node, cst.Name) and value_node.value in fr.arg_nodes \
                and fr.call is not None else None
            if b is None or b.stmt is not None or k and (
                    owner is None or fr.self_obj is None or fr.self_obj.ref != owner):
                break
            # a helper that accumulates its parameter as given (``collect(self, key,
            # value)``) is reported at the call that hands it the graph
            # (``stat_col.collect("loss", loss)``): there is what to detach; through the
            # methods of the same object that pass on their own parameter (a metric's
            # ``forward(preds)`` calling ``self.update(preds)``: at ``metric(preds)``)
            node, value_node = fr.call, fr.arg_nodes[value_node.value]
        rec = self.accumulations.get(id(node))
        freed = self.state.freed
        live = not any(s in freed and s not in self.state.partial for s in val.segs)
        made = heads(val.segs, self.segs)
        if key is not None:
            self.accumulator_keys.add(key)
        evaluating = self.frame.eval_mode and self._evaluated(val.segs)
        if rec is None:
            self.accumulations[id(node)] = Accumulation(
                node, acc_node, value_node, val.segs, passes, evaluating,
                tuple((f.id, f.stmt, f.func) for f in self.frames), live, made, key,
                val.kind in ("tuple", "container"), parts=_graph_parts(value_node, val))
        else:
            rec.segs |= val.segs
            rec.heads |= made
            rec.passes |= passes
            rec.eval_mode = rec.eval_mode or evaluating
            rec.live = rec.live or live
            rec.key = key or rec.key  # (this call's variable: a function called again)
            rec.container = rec.container or val.kind in ("tuple", "container")

    def _evaluated(self, segs) -> bool:
        """Whether a graph of ``segs`` runs through models in evaluation mode only: it
        reaches parameters of known modules, and ``eval()`` (or ``train(False)``) set
        ``training`` off on each of them (not a model trained beside an evaluated one:
        a distillation teacher's ``eval()``, a BatchNorm put in eval mode inside a
        ``forward``)."""
        mods, wild = self.reach_of(segs)
        if wild or not mods:
            return False
        env = self.state.env
        for r in mods:
            b = env.get(("@", r, "training"))
            if b is None or b.val.kind != "scalar" or b.val.ref is not False:
                return False
        # (and every source of the graph is a call of one of them: not ``x @ self.W`` of
        # an nn.Parameter, whatever else it reaches)
        reach = self.seg_reach
        return all(sid in reach and reach[sid][0] for sid in segs
                   if not self.segs[sid].parents & segs)

    def released(self, key, val: Val) -> None:
        """``key`` is bound anew to ``val`` (or emptied): what was accumulated into it in a
        loop pass still running is let go within that pass, so it does not pile up across
        that loop's iterations (``memory.clear_memory()`` at the end of each episode, whose
        steps appended log-probs with their graphs), unless ``val`` still holds it or the
        rebinding is on only some paths of the pass (under a test the pass's own start did
        not decide: ``if step % 100 == 0: losses = []`` keeps a hundred graphs; the
        finding then says until when: ``Accumulation.emptied``)."""
        if not self.loop_stack:
            return
        running = frozenset(p for _, p in self.loop_stack
                            if self.pass_undecided.get(p) == self.undecided)
        if not val.segs and running:
            # bound anew to a value with no graph (``self.batch_metrics = {}`` at the top
            # of each iteration, in a method the loop calls): what is added to it later in
            # these passes is gone by their next iteration
            self.fresh_in[key] = self.fresh_in.get(key, frozenset()) | running
        if key not in self.accumulator_keys:
            return
        periodic = frozenset(p for _, p in self.loop_stack) - running
        for rec in self.accumulations.values():
            if rec.key != key or rec.heads & val.segs:
                continue
            rec.passes -= running
            emptied = rec.passes & periodic
            if emptied:
                # emptied every few iterations (``if step % n == 0: loss_sum = 0``): it
                # keeps the graphs of the iterations since it was last emptied
                rec.emptied = self.frame.stmt
                rec.emptied_passes |= emptied

    def _fresh_each_pass(self, key, ctx) -> bool:
        """Whether the variable ``key`` holds what an assignment in the body of the loop
        ``ctx`` (in its own frame) bound anew, from values that are not its own
        (``masks = []``, ``mask = w.sigmoid()`` at the top of every iteration): what is
        added to it then is gone by the next iteration."""
        b = self.state.env.get(key)
        stmt = b.stmt if b is not None else None
        if ctx.frame != self.frame.id or not isinstance(stmt, cst.SimpleStatementLine) or \
                id(stmt) not in self.code_fact(_loop_statements, ctx.node):
            return False
        name = key[-1]
        return any(isinstance(small, cst.Assign) and
                   any(_names_slot(t.target, name) for t in small.targets) and
                   name not in names_read(small.value)
                   for small in stmt.body)

    def _holds_accumulator(self, rec, segs: frozenset) -> bool:
        """Whether a graph of ``segs`` holds what the accumulator of ``rec`` holds now (the
        operation that made its value: ``total.backward()``, ``sum(losses).backward()``),
        or the engine cannot tell (an in-place accumulation, an accumulator out of
        sight, or one that holds no graph any more)."""
        binding = self.state.env.get(rec.key) if rec.key is not None else None
        if binding is None or not binding.val.segs:
            return True
        held = heads(binding.val.segs, self.segs)
        if binding.val.kind != "container":
            return bool(held & segs)
        # a list or dict holds each iteration's value: a backward holds them all
        # (``torch.stack(losses).sum().backward()``), not one (``losses.append(loss);
        # loss.backward()``). In the first pass of the loops it piles up across it may
        # hold this iteration's only: consumed until a later pass's backward holds fewer
        key = id(rec.node)
        if any(self.pass_index.get(p) == 0 for _, p in self.loop_stack if p in rec.passes):
            if held & segs:
                self.consumed_first.add(key)
                return True
            return False
        if held <= segs:
            self.consumed_first.discard(key)
            return True
        if key in self.consumed_first:
            self.consumed_first.discard(key)
            self.consumed.discard(key)
        return False

    def _returned(self, val: Val) -> None:
        """A function returns ``val``: graphs it accumulated, that no backward freed, and
        returns outside an evaluation are its caller's to backpropagate (a loss summed
        over chunks), not kept alive for nothing. A returned sum of losses already
        backpropagated, or of evaluation losses, is still a leak. (A list or dict handed
        back to a caller the engine runs is that caller's to use: it decides by what it
        does with it, a backward of it or not: experiment results printed.) Only what
        accumulated while this function ran: a method that returns what another one
        accumulated in the object (a running statistic's ``__call__``) hands on a leak."""
        if val.segs and (self.frame.call is None or val.kind != "container"):
            for rec in self.accumulations.values():
                if rec.live and not rec.eval_mode and rec.heads & val.segs and \
                        any(f[0] == self.frame.id for f in rec.frames):
                    self.consumed.add(id(rec.node))

    def in_place(self, node, target: Val, others, acc_node=None, value_node=None) -> Val:
        """An in-place operation on ``target`` with ``others`` as operands: the result is
        the same storage, one version newer, with the operands' graphs added. Any in-place
        op keeps an edge to the storage's old graph (``fill_`` and ``copy_`` too: their
        backward nodes' next functions), so operands' graphs written, in a loop, into a
        tensor that outlives the iteration pile up there (``acc_node``: the receiver's
        expression, ``value_node``: the operand's, for the finding)."""
        if acc_node is not None and others and target.store is not None:
            added = join_all(others)
            self._accumulate(node, acc_node, added, value_node, target.store)
        res = self.op(node, "in-place", [target] + list(others), saves=False)
        self.bump(target, node)
        if res.segs and target.store is not None and not _detached(target):
            self._share_with_views(target.store, res.segs)
        return Val("tensor", res.segs, target.leaf, None, None, None, target.store,
                   src=res.src if not target.leaf else None)

    def _share_with_views(self, store, segs) -> None:
        """An in-place change of a view gives its base (and the base's other views) the
        new graph: autograd rebases them on a CopySlices node (``right = out[:, 2:];
        right.copy_(h)`` and ``out`` has ``h``'s graph). Tensors that share the storage
        through ``detach()`` are no views autograd tracks: they keep theirs."""
        env = self.state.env
        for k, b in list(env.items()):
            v = b.val
            if v.kind == "tensor" and v.store == store and not v.segs >= segs and \
                    not _detached(v):
                env[k] = Binding(replace(v, segs=v.segs | segs, src=None), b.stmt)

    def _note_stale(self, pos) -> None:
        """Record arguments (plain names) whose graph a backward already freed: the place
        a stale tensor re-enters a computation, as ``(name node, freed segs, frame id)``."""
        freed = self.state.freed
        for v, node in pos:
            if isinstance(node, cst.Name) and v.segs:
                hit = frozenset(s for s in v.segs if s in freed)
                if hit:
                    self.stale_uses.append((node, hit, self.frame.id))

    def _cut_in_place(self, node, recv: Val) -> None:
        """``x.detach_()``: x (and the container x iterates, if any) loses its graph."""
        key = self.key_of(node)
        if key is not None:
            self.state.env[key] = Binding(self.cut_value("detach", node, recv, Val("tensor")),
                                          self.frame.stmt)
        if recv.alias is not None and recv.alias in self.state.env:
            old = self.state.env[recv.alias]
            self.state.env[recv.alias] = Binding(
                Val(old.val.kind, EMPTY, False, old.val.ref,
                    tuple(Val(e.kind, EMPTY, False, e.ref) for e in old.val.elts)
                    if old.val.elts else None), old.stmt)

    def backward(self, call, val: Val, root_node, api: str, pos, kw, sure: bool = True,
                 inputs: Val | None = None) -> None:
        """Walk and free the graph of ``val`` (unless retained) and report walks through
        segments an earlier backward freed (PyTorch: torch/csrc/autograd/engine.cpp).
        ``sure``: ``val`` is known to be what is backpropagated (not the first argument of a
        ``.backward(...)`` whose receiver may be a tensor the engine does not know).
        ``inputs``: the value given as ``inputs`` (``autograd.grad(out, x)``), when any."""
        retain = self._retains(api, pos, kw)
        freed = self.state.freed
        self.passes_with_backward.update(p for _, p in self.loop_stack)
        self._log_backward(call, root_node, val, sure, api == "autograd.grad")
        history = val.segs  # (a gradient with respect to an accumulated value uses it)
        walked = self._walked(history, inputs)
        if walked is not history:
            val = replace(val, segs=walked)
        for fid, pending in list(self.pending_inplace.items()):
            # this backward walks a node whose saved tensor a module method changed in
            # place: a hazard whether or not that method lets the graph out
            self.pending_inplace[fid] = [(h, seen) for h, seen in pending
                                         if h.seg.id not in val.segs]
        for rec in self.accumulations.values():
            # a backward that frees consumes the accumulated values themselves only, not a
            # graph they share (that part can never be backpropagated again: errD kept
            # beside errG.backward()); one that keeps its graph (retain_graph/create_graph,
            # or not known to free) may leave it for a later backward (a meta-learning
            # loss over an inner loop's graphs)
            if (retain is not False and rec.segs & history) or \
                    (rec.heads & history and self._holds_accumulator(rec, history)):
                self.consumed.add(id(rec.node))
        if retain is True and not self.no_grad and not self._creates_graph(api, pos, kw):
            # (create_graph=True asks for the graph of the gradients themselves: a MAML
            # inner loop chains its steps through them on purpose)
            self._check_retained_carry(call, root_node, val)
        hit = tuple(s for s in sorted(val.segs) if s in freed and self.segs[s].saves)
        if hit:
            self._report(call, root_node, hit, val.segs)
        else:
            self._check_versions(call, root_node, val)
        if retain is False and not self.no_grad:
            # a wrapper's backward (accelerator.backward(loss)) frees at its call site
            site_call, _, site = self._site(call, root_node)
            info = Free(site_call, self.stamp(),
                        tuple((f.id, f.stmt) for f in self.frames[:site]),
                        self.param_updates, self.tops.get(id(self.frames[site - 1].func))
                        or self.top(), call if site_call is not call else None,
                        len(self.backwards) - 1)
            for s in val.segs:
                freed.setdefault(s, info)
            if self.state.free_guards:  # freed on this path, whatever the test said
                self.state.free_guards = frozenset(
                    g for g in self.state.free_guards if g[0] not in val.segs)
            if self.state.partial:  # freed on this path now, whatever other paths did
                self.state.partial = self.state.partial - val.segs

    def _walked(self, segs: frozenset, inputs: Val | None) -> frozenset:
        """The segments of ``segs`` a backward given ``inputs`` runs (and frees): the
        engine executes only the nodes on a path from the outputs to an input
        (torch/csrc/autograd/engine.cpp, ``compute_dependencies`` / ``init_to_execute``),
        so what built the inputs, and branches that lead to none, are neither walked nor
        freed. Only when every input is a tensor the engine knows (its graph's heads, or
        the storage of a leaf); otherwise all of ``segs``."""
        if inputs is None:
            return segs
        elts = inputs.elts if inputs.kind in ("tuple", "container") else (inputs,)
        if not elts:
            return segs
        heads_in, leaves_in = set(), set()
        for e in elts:
            if e.kind != "tensor" or e.store is None or \
                    (isinstance(e.store, tuple) and e.store[0] == "param"):
                return segs
            if e.segs:
                heads_in |= heads(e.segs, self.segs)
            elif e.leaf:
                leaves_in.add(e.store)
            else:
                return segs
        table = self.segs

        def downstream(sid: int) -> bool:
            seg = table[sid]
            if seg.parents & heads_in or seg.leaves & leaves_in:
                return True
            return bool(leaves_in) and any(table[p].leaves & leaves_in for p in seg.parents)

        return frozenset(s for s in segs if downstream(s))

    def _log_backward(self, call, root_node, val: Val, sure: bool = True,
                      returns_grads: bool = False) -> None:
        """Record the backward for GG402 (which modules its graph reaches), and report a
        root known to have no graph (GG401: autograd raises "element 0 of tensors does
        not require grad and does not have a grad_fn",
        torch/csrc/autograd/autograd.cpp)."""
        reach, wild = self.reach_of(val.segs)
        if returns_grads:
            # torch.autograd.grad returns the gradients and leaves every .grad as it was:
            # no optimizer sees them (unless the code writes .grad itself, GG402's guard)
            reach, wild = EMPTY, False
        elif not val.segs and not val.leaf and val.src is None:
            # a root of unknown provenance with no graph the engine knows: whatever graph
            # it has was built where the engine did not look, from parameters it cannot name
            wild = True
        if self.hooked and (val.segs & self.hooked or val.store in self.hooked):
            wild = True  # (a hook of the user's runs on the way: ``register_hook``)
        for opt, reached in self.grads_since_clear.items():
            if reached is not None:
                self.grads_since_clear[opt] = None if wild else reached | reach
        for key in self.cleared_keys:
            if key in self.state.env:
                self.state.env[key] = Binding(Val("scalar", ref=False), None)
        silencer = self.silencers.get(val.store) if val.leaf and not val.segs else None
        leaves = EMPTY if returns_grads else self.leaves_of([val])
        self.backwards.append(Backward(call, self.stamp(), reach, wild, val.src, silencer,
                                       leaves, returns_grads, len(self.cut_log)))
        if not sure or val.kind != "tensor" or val.segs or val.leaf or val.src is None:
            return
        key = (id(call), "no-graph")
        if key in self._seen_hazards:
            return
        self._seen_hazards.add(key)
        self.mark()
        site_call, site_root, site = self._site(call, root_node)
        self.no_graph.append(NoGraph(
            site_call, call, site_root, val.src,
            tuple((fr.id, fr.stmt, fr.func) for fr in self.frames[:site]),
            dict(self.state.env),
            tuple(dict.fromkeys(stmt for stmt, ref, flag in self.module_flag_sets
                                if flag and ref in self.frozen))))

    def _retains(self, api: str, pos, kw) -> bool | None:
        """True, False, or None when the code does not say (``retain_graph=flag``: the
        backward is then taken to free nothing, and not to retain on purpose either),
        from retain_graph and create_graph (create_graph=True makes retain_graph default
        to True)."""
        ri, ci = T.RETAIN_POSITION[api]
        r, c = _arg(pos, kw, "retain_graph", ri), _arg(pos, kw, "create_graph", ci)
        if r is not None and not (isinstance(r[1], cst.Name) and r[1].value == "None"):
            return arg_truth(r)
        if c is not None:
            return arg_truth(c)
        return False

    @staticmethod
    def _creates_graph(api: str, pos, kw) -> bool:
        """Whether the call says ``create_graph=True`` (by keyword or position)."""
        arg = _arg(pos, kw, "create_graph", T.RETAIN_POSITION[api][1])
        return arg is not None and arg_truth(arg) is True

    def _check_retained_carry(self, call, root_node, val: Val) -> None:
        """``retain_graph=True`` in a loop whose backward reaches a segment built in an
        earlier iteration: no error, but each step backpropagates through all history."""
        cur = self.stamp()
        for i, (ctx, p) in enumerate(self.loop_stack):
            for sid in sorted(val.segs):
                st = self.segs[sid].stamp
                if len(st) > i and st[:i] == cur[:i] and st[i] != p and \
                        self.pass_loop.get(st[i]) == ctx.key:
                    key = (id(call), "retained")
                    if key not in self._seen_hazards:
                        self._seen_hazards.add(key)
                        self.mark()
                        self.retained_carries.append(Hazard(
                            "retained", call, root_node, (sid,), (), ctx,
                            tuple((fr.id, fr.stmt, fr.func) for fr in self.frames),
                            dict(self.state.env), dict(self.state.freed),
                            self.param_updates, val.segs,
                            tuple(c for c, _ in self.loop_stack)))
                    return

    def _check_versions(self, call, root_node, val: Val) -> None:
        """Report the first saved tensor the backward needs that was changed in place
        since it was saved, and when it is a tensor (not parameters) every other such
        tensor (autograd compares the saved ``_version`` with the tensor's:
        torch/csrc/autograd/saved_variable.cpp, "modified by an inplace operation")."""
        versions = self.state.versions
        found = False
        for sid in sorted(val.segs):
            seg = self.segs[sid]
            for store, ver in seg.saved:
                if found and store[0] == "param":
                    continue
                bump = self._first_bump(store, ver, versions.get(store, 0))
                if bump is not None:
                    key = (id(call), "inplace", store)
                    bump_key = (id(bump[0][0]), "inplace", store)
                    if key in self._seen_hazards or (store[0] != "param" and
                                                     bump_key in self._seen_hazards):
                        if found:
                            continue
                        return
                    self._seen_hazards.add(bump_key)
                    self.mark()
                    self._seen_hazards.add(key)
                    outer_call, outer_root, site = self._site(call, root_node)
                    # (a parameter a module's own forward changed, ``Embedding(max_norm=)``
                    # renormalising its weight, is an in-place change like any other)
                    param = store[0] == "param" and id(bump[0][0]) not in self.self_changes
                    if param:
                        outer_call, outer_root, site = self._param_site(
                            call, root_node, outer_call, outer_root, site, bump[0][1])
                    self.inplace.append(InplaceHazard(
                        "param" if param else "tensor", outer_call, call,
                        outer_root, seg, store, bump[0],
                        tuple((fr.id, fr.stmt, fr.func) for fr in self.frames[:site]),
                        dict(self.state.env),
                        tuple((fr.id, fr.stmt, fr.func) for fr in self.frames), self.stamp(),
                        bump[1]))
                    if param:
                        return
                    # every other tensor this backward needs and that was changed in
                    # place too (a key cache and a value cache): a fix must undo them all
                    found = True

    def _param_site(self, call, root_node, outer_call, outer_root, site, path):
        """Where a backward through updated parameters is reported: in the deepest frame
        that both it and the update (``path``: its frames) ran in, at the call that led
        to the backward there (``update_params(q_opt, q_loss); update_params(pi_opt,
        pi_loss)``: the second call, not the helper's shared ``loss.backward()``); at the
        backward itself when the update ran in its own frame (a helper that steps one
        optimizer before backpropagating another loss), or when the backward's loss is
        its function's own (``backward_G_alone()`` called after the steps)."""
        ids = [f.id for f in self.frames]
        k = 0
        # the same frame, or one called from the same statement (an earlier iteration's
        # call of the same method: ``agent.update(...)`` stepped, then backpropagates)
        while k < len(ids) and k < len(path) and (
                ids[k] == path[k][0] or k and self.frames[k - 1].stmt is path[k - 1][1]):
            k += 1
        if k >= len(ids) or site == len(ids):
            # (a function that backpropagates a loss it built itself, called after the
            # update: at its backward, where autograd raises)
            return call, root_node, len(ids)
        if k == site:
            return outer_call, outer_root, site
        return self.frames[k].call, None, k

    def _first_bump(self, store, saved: int, now: int):
        """The in-place change that moved ``store`` past the version a node saved (the
        one autograd's error is about: ``x2 *= s; x2 += t`` fails at the first), as
        ``((node, frame path), top statement)``; None if it is at that version still."""
        return next((self.bumps[(store, v)] for v in range(saved + 1, now + 1)
                     if (store, v) in self.bumps), None)

    def _site(self, call, root_node):
        """Where a backward is reported: a wrapper that backwards its parameter (``def
        manual_backward(self, loss): loss.backward()``) is reported at its call site.
        Returns ``(call, root expression, number of frames up to the site)``."""
        site = len(self.frames)
        for fr in reversed(self.frames[1:]):
            if not (isinstance(root_node, cst.Name) and root_node.value in fr.arg_nodes
                    and fr.call is not None and (fr.id, root_node.value) in self.state.env
                    and self.state.env[(fr.id, root_node.value)].stmt is None):
                break
            call, root_node = fr.call, fr.arg_nodes[root_node.value]
            site -= 1
        return call, root_node, site

    def _report(self, call, root_node, hit, val_segs) -> None:
        call, root_node, site = self._site(call, root_node)
        cur = self.stamp()
        frees = tuple(self.state.freed[s] for s in hit)
        kind, loop, entry = "same", None, None
        f = frees[0]
        for i, (ctx, p) in enumerate(self.loop_stack):
            if i >= len(f.stamp) or f.stamp[i] != p:
                if i < len(f.stamp) and self.pass_loop.get(f.stamp[i]) == ctx.key:
                    # freed in an earlier pass (iteration) of this loop
                    loop, entry = ctx, self.entry_envs.get(p)
                    seg = self.segs[hit[0]]
                    inside = len(seg.stamp) > i and seg.stamp[:i] == cur[:i] and \
                        self.pass_loop.get(seg.stamp[i]) == ctx.key
                    kind = "carried" if inside else "reused"
                break
        key = (id(call), kind)
        if key in self._seen_hazards or (id(call), "same") in self._seen_hazards:
            return
        self._seen_hazards.add(key)
        self.mark()
        frames = tuple((fr.id, fr.stmt, fr.func) for fr in self.frames[:site])
        self.hazards.append(Hazard(kind, call, root_node, hit, frees, loop, frames,
                                   dict(self.state.env), dict(self.state.freed),
                                   self.param_updates, val_segs,
                                   tuple(ctx for ctx, _ in self.loop_stack), entry,
                                   len(self.backwards) - 1))


def _arg(pos, kw, name: str, idx: int | None):
    """``(value, expression)`` given for parameter ``name`` (by keyword, else at position
    ``idx``), or None."""
    if name in kw:
        return kw[name]
    if idx is not None and len(pos) > idx:
        return pos[idx]
    return None


def _tensors_of(vals):
    """The tensors a node's inputs are: a list or tuple of known elements
    (``torch.cat([x, t])``) stands for them, one of unknown elements for itself."""
    for v in vals:
        if v.kind in ("tuple", "container"):
            elts = v.elts if v.elts is not None else (v.ref[1],) \
                if isinstance(v.ref, tuple) and len(v.ref) == 2 and v.ref[0] == "elem" else None
            if elts is not None:
                yield from _tensors_of(elts)
                continue
        yield v


def _loop_statements(loop) -> frozenset:
    """The ids of the simple statements in a loop's body (not in a nested def)."""
    return frozenset(id(n) for n in walk_scope(loop.body)
                     if isinstance(n, cst.SimpleStatementLine))


def _names_slot(target, name: str) -> bool:
    """``target`` is the name ``name`` or an attribute ``x.name``."""
    return isinstance(target, cst.Name) and target.value == name or \
        isinstance(target, cst.Attribute) and target.attr.value == name


def _made_before(store, pass_id: int) -> bool:
    """Whether a tensor's storage (``("t", id)``: ids and loop passes are numbered by one
    counter; each side of a join) was made before the loop pass ``pass_id`` began."""
    return all(isinstance(s, tuple) and s[0] == "t" and s[1] < pass_id
               for s in store_parts(store))


def _detached(v: Val) -> bool:
    """``v`` is ``x.detach()`` (or made from it by in-place changes): it shares ``x``'s
    storage, but autograd does not see it as a view of ``x``."""
    return bool(v.src) and v.src[-1].kind == "detach"


def _maybe_numbers(val: Val) -> bool:
    """Whether every part of ``val`` that carries a graph may be a plain number instead
    (a part of an unknown model's or function's output, :data:`MODEL_PART`; a dict or
    tuple of those and of values with no graph: ``{"loss": loss.item(), "kl": info.kl}``)."""
    if val.ref == MODEL_PART:
        return True
    items = dict_items(val)
    parts = items[1] if items else val.elts if val.kind in ("tuple", "container") else None
    return bool(parts) and all(not p.segs or _maybe_numbers(p) for p in parts)


def _autocast_lowers(node, label: str) -> bool:
    """Whether an op autocast runs in lower precision (``T.AUTOCAST_LOWER_OPS``): what
    it saves are casted copies of its inputs."""
    return label in T.AUTOCAST_LOWER_OPS or isinstance(node, cst.BinaryOperation) and \
        isinstance(node.operator, cst.MatrixMultiply)


def _graph_parts(node, val: Val) -> tuple:
    """The elements of a dict, list or tuple display ``node`` (of value ``val``) that
    hold a graph, when each of those is a tensor; else ()."""
    if isinstance(node, cst.Dict):
        items = dict_items(val)
        elements = [e for e in node.elements if isinstance(e, cst.DictElement)]
        if items is None or len(elements) != len(node.elements) or \
                len(items[1]) != len(elements):
            return ()
        pairs = [(e.value, v) for e, v in zip(elements, items[1])]
    elif isinstance(node, (cst.List, cst.Tuple)) and val.elts is not None and \
            len(val.elts) == len(node.elements) and \
            all(isinstance(e, cst.Element) for e in node.elements):
        pairs = [(e.value, v) for e, v in zip(node.elements, val.elts)]
    else:
        return ()
    held = [(n, v) for n, v in pairs if v.segs]
    if not held or any(v.kind != "tensor" for _, v in held):
        return ()
    return tuple(n for n, _ in held)

