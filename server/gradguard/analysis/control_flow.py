"""Control flow: what ``if`` / ``match`` / ``for`` / ``while`` / ``with`` / ``try`` do to
the abstract state: branches run from copies of the state and join (a graph one branch let
go of is not a freed graph in the other), loops run LOOP_PASSES passes (each pass's
elements of a per-iteration list told apart), a few known optimizers or submodules
unrolled, ``with torch.no_grad()`` and friends."""

from __future__ import annotations

import itertools
from dataclasses import replace

import libcst as cst
import libcst.matchers as m

from gradguard.analysis import torchapi as T
from gradguard.analysis.frames import LOOP_PASSES, MAX_LOOP_NESTING, LoopCtx, literal_int, \
    children_of, dotted, literal_truth, string_value, walk_scope
from gradguard.analysis.known_numbers import counter_start, int_of, known_int, pass_counter, \
    range_length
from gradguard.analysis.python_semantics import MAX_ELTS, known_strings, names_in
from gradguard.analysis.values import EMPTY, NONE, SCALAR, UNKNOWN, Binding, Cond, State, Val, \
    dict_items, dict_sure_keys, join_states, known_object


MAX_BRANCHED_PASSES = 4
"""Loops over a ``range`` of at most this many known ints whose body branches on the index
run pass by pass (:meth:`ControlFlow._branches_on_index`)."""


def _tested_names(body) -> tuple:
    """The names an ``if`` (or ``elif``) in ``body`` tests for equality with an int
    (``if level == 0:``), nested functions and classes aside; and whether ``body`` trains
    (calls a ``backward`` or a ``step``: a training loop's passes stand for its
    iterations, which a later pass's are)."""
    out, trains, todo = set(), False, [body]
    while todo:
        n = todo.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(n, cst.If) and isinstance(n.test, cst.Comparison) and \
                len(n.test.comparisons) == 1 and isinstance(n.test.left, cst.Name) and \
                isinstance(n.test.comparisons[0].operator, cst.Equal) and \
                isinstance(n.test.comparisons[0].comparator, cst.Integer):
            out.add(n.test.left.value)
        if isinstance(n, cst.Attribute) and n.attr.value in ("backward", "step"):
            trains = True
        todo.extend(children_of(n))
    return frozenset(out), trains


def _is_main_guard(test) -> bool:
    """``__name__ == "__main__"``: false in a module that is imported."""
    return isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and \
        isinstance(test.left, cst.Name) and test.left.value == "__name__" and \
        isinstance(test.comparisons[0].operator, cst.Equal) and \
        isinstance(test.comparisons[0].comparator, cst.SimpleString) and \
        string_value(test.comparisons[0].comparator) == "__main__"


class ControlFlow:
    """The compound statements of the interpreter (a mixin of
    :class:`~gradguard.analysis.interp.Interpreter`)."""

    @staticmethod
    def truth(v: Val) -> bool | None:
        """The truth value of a known constant (True/False/None), else None."""
        if v.kind == "none":
            return False
        if v.kind == "scalar" and isinstance(v.ref, bool):
            return v.ref
        if v.kind == "scalar" and isinstance(v.ref, tuple) and v.ref[0] in ("str", "int", "float"):
            return bool(v.ref[1])  # a string or number of known value: true unless empty / 0
        if v.kind == "tuple" and v.elts is not None and not v.nullable:
            return bool(v.elts)  # a tuple of known length
        if dict_sure_keys(v) and not v.nullable:
            return True  # a dict that surely has a key (``train_cfg or {}``)
        return None

    def exec_match(self, stmt: cst.Match) -> None:
        """``match``: each case from the state after the subject, its capture patterns
        bound to the subject (or its elements), its guard evaluated; the cases join, with
        the state in which none matched unless the last case matches anything."""
        subject = self.eval(stmt.subject)
        entry = self.state
        outs = []
        for case in stmt.cases:
            self.state = entry.copy()
            self._bind_pattern(case.pattern, subject)
            if case.guard is not None:
                self.eval(case.guard)
            self.exec_block(case.body.body)
            outs.append(self.state)
        last = stmt.cases[-1] if stmt.cases else None
        irrefutable = last is not None and last.guard is None and \
            isinstance(last.pattern, cst.MatchAs) and last.pattern.pattern is None
        self.state = join_states(outs if irrefutable else outs + [entry])

    def _bind_pattern(self, pattern, subject: Val) -> None:
        """Bind the names a ``match`` pattern captures: ``x``/``... as x`` the subject,
        names inside sequence, mapping and class patterns an element of it."""
        if isinstance(pattern, cst.MatchAs):
            if pattern.pattern is not None:
                self._bind_pattern(pattern.pattern, subject)
            if pattern.name is not None:
                self.bind(pattern.name.value, subject)
            return
        if isinstance(pattern, cst.MatchOr):
            for alt in pattern.patterns:
                self._bind_pattern(alt.pattern, subject)
            return
        element = self._element(subject)
        if isinstance(pattern, (cst.MatchSequence, cst.MatchList, cst.MatchTuple)):
            for p in pattern.patterns:
                if isinstance(p, cst.MatchStar):
                    if p.name is not None:
                        self.bind(p.name.value, Val("container", element.segs, element.leaf))
                else:
                    self._bind_pattern(p.value, element)
        elif isinstance(pattern, cst.MatchMapping):
            for e in pattern.elements:
                self._bind_pattern(e.pattern, element)
            if pattern.rest is not None:
                self.bind(pattern.rest.value, Val("container", subject.segs, subject.leaf))
        elif isinstance(pattern, cst.MatchClass):
            for p in pattern.patterns:
                self._bind_pattern(p.value, UNKNOWN)
            for k in pattern.kwds:
                self._bind_pattern(k.pattern, UNKNOWN)

    def exec_if(self, stmt: cst.If) -> None:
        # ``if __name__ == "__main__":`` runs in the file being checked (a script run as
        # such), not in a module it imports
        known = (self.gid == "G") if self.frame.id == self.gid and \
            _is_main_guard(stmt.test) else self.truth(self.eval(stmt.test))
        if known is None:
            known = self._forced_outcome(stmt.test)
        if known is True:
            self.exec_block(stmt.body.body)
            return
        if known is False:
            if isinstance(stmt.orelse, cst.If):
                self.exec_stmt(stmt.orelse)
            elif isinstance(stmt.orelse, cst.Else):
                self.exec_block(stmt.orelse.body.body)
            return
        cond = self.cond_of(stmt.test)
        entry = self.state
        self.state = entry.copy()
        self._refine(stmt.test, True)
        if cond is not None:
            self.state.assume(cond)
        grad_entry = self.no_grad
        capped = self._capped(stmt.test)
        self.capped.append(capped)
        self.undecided += 1  # (what the branches set up is so only on some paths)
        try:
            try:
                self.exec_block(stmt.body.body)
            finally:
                self.capped.pop()
            then = self.state
            grad_then, self.no_grad = self.no_grad, grad_entry
            self.state = entry.copy()
            self._refine(stmt.test, False)
            if cond is not None:
                self.state.assume(cond.negated())
            if isinstance(stmt.orelse, cst.If):
                self._relied_chain(stmt)
                self.exec_stmt(stmt.orelse)
            elif isinstance(stmt.orelse, cst.Else):
                self.exec_block(stmt.orelse.body.body)
            elif self.relied_ifs.get(id(stmt)):
                # no branch of the chain taken: the code relies on that never happening
                self.state.dead = True
        finally:
            self.undecided -= 1
        self._let_go(then, self.state)
        # the grad mode a bare set_grad_enabled() left: the live branches', when they
        # agree; else as it was before the if
        modes = {m for m, st in ((grad_then, then), (self.no_grad, self.state))
                 if not st.dead}
        self.no_grad = modes.pop() if len(modes) == 1 else grad_entry
        self.state = join_states([then, self.state],
                                 (cond, cond.negated()) if cond is not None else None)

    def _capped(self, test):
        """The env key of the container ``c`` a test ``len(c) < n`` (``<=``, ``n > len(c)``)
        bounds: what the branch appends to it stays within a capacity (an image pool, a
        replay buffer that replaces once full), not one graph per iteration; else None."""
        if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
            return None
        op, right = test.comparisons[0].operator, test.comparisons[0].comparator
        side = test.left if isinstance(op, (cst.LessThan, cst.LessThanEqual)) else \
            right if isinstance(op, (cst.GreaterThan, cst.GreaterThanEqual)) else None
        if isinstance(side, cst.Call) and isinstance(side.func, cst.Name) and \
                side.func.value == "len" and len(side.args) == 1 and \
                isinstance(side.args[0].value, (cst.Name, cst.Attribute)):
            return self.key_of(side.args[0].value)
        return None

    def cond_of(self, test) -> Cond | None:
        """The :class:`Cond` under which ``test`` (just evaluated) came out true, when the
        test reads only names, attributes, constants and operators (or is a call of a
        function that returned such a test on every path), else None."""
        test, truth = _without_not(test)
        if isinstance(test, cst.Call):
            ret = self.returned_cond
            if ret is None or ret[0] is not test:
                return None
            c = ret[1]
            return c if truth else c.negated()
        bindings: list = []
        if not self._test_reads(test, bindings):
            return None
        text = self.cond_texts.get(id(test))
        if text is None:
            text = self.cond_texts[id(test)] = cst.Module([]).code_for_node(test)
        return Cond(text, tuple(bindings), truth)

    def _test_reads(self, node, bindings: list) -> bool:
        """Whether ``node`` reads only names, attributes, constant subscripts, constants
        and operators; appends to ``bindings`` what each name or attribute chain it reads
        is bound to (for a chain, the binding of its longest prefix the state binds; an
        attribute never assigned of an object the engine knows, its key)."""
        if isinstance(node, (cst.Name, cst.Attribute)):
            chain = []
            while isinstance(node, cst.Attribute):
                chain.append(node.attr.value)
                node = node.value
            if not isinstance(node, cst.Name):
                return False
            if node.value in ("True", "False", "None") and not chain:
                return True
            key = self.lookup_key(node.value)
            b = self.state.env.get(key) if key is not None else None
            if b is None:
                return False
            for attr in reversed(chain):
                v = b.val
                if v.kind not in ("object", "module") or v.ref is None or isinstance(v.ref, str):
                    break
                nxt = self.state.env.get(("@", v.ref, attr))
                if nxt is None:
                    b = ("@", v.ref, attr)
                    break
                b = nxt
            bindings.append(b)
            return True
        if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)):
            return True
        if isinstance(node, cst.UnaryOperation):
            return self._test_reads(node.expression, bindings)
        if isinstance(node, (cst.BooleanOperation, cst.BinaryOperation)):
            return self._test_reads(node.left, bindings) and \
                self._test_reads(node.right, bindings)
        if isinstance(node, cst.Comparison):
            return self._test_reads(node.left, bindings) and all(
                self._test_reads(c.comparator, bindings) for c in node.comparisons)
        if isinstance(node, cst.Subscript):
            return len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) and \
                isinstance(node.slice[0].slice.value, (cst.Integer, cst.SimpleString)) and \
                self._test_reads(node.value, bindings)
        return False

    def _let_go(self, a: State, b: State) -> None:
        """Before two branches join: a graph one branch freed and stopped holding in a
        variable (``if step % k == 0: sum(losses).backward(); losses = []``), while the
        other branch still holds it there unfreed, is never a freed graph in that
        variable: on every path, either the variable let it go or it was not freed. So
        in the branch that holds it, the variable gets copies of those segments that no
        backward freed (the join loses which path is which; a variable both branches
        hold it in still holds the freed one). The same for a graph whose saved tensors
        one branch changed in place (an optimizer step after the update's backward:
        ``if done: loss.backward(); opt.step(); D = []``): the copies saved them at the
        version the join gives, as they were current (or stale) in the branch that holds
        them."""
        if a.dead or b.dead or (a.freed.keys() == b.freed.keys() and
                                a.versions == b.versions):
            return
        for holder, freer in ((a, b), (b, a)):
            only = freer.freed.keys() - holder.freed.keys()
            # the storages the other branch changed beyond this one's version of them
            shift = {st: v - holder.versions.get(st, 0) for st, v in freer.versions.items()
                     if v > holder.versions.get(st, 0)}
            if shift:
                only = only | {sid for st in shift for sid in self.saved_by.get(st, ())}
            if not only:
                continue
            copies: dict = {}
            for key in list(holder.env.changed(freer.env)):
                mine = holder.env.get(key)
                if mine is None or not (mine.val.segs & only):
                    continue
                theirs = freer.env.get(key)
                held = theirs.val.segs if theirs is not None else EMPTY
                swap = {sid for sid in mine.val.segs & only if sid not in held}
                if swap:
                    holder.env[key] = Binding(
                        self._with_copies(mine.val, swap, copies, shift), mine.stmt)

    def _with_copies(self, v: Val, swap: set, copies: dict, shift: dict) -> Val:
        """``v`` (and its elements) with the segments in ``swap`` replaced by copies (one
        copy per segment, shared by every value that gets one), whose saved versions of
        the storages in ``shift`` are moved up by as much."""
        def copy_of(sid: int) -> int:
            if sid not in copies:
                cid = copies[sid] = next(self._ids)
                seg = self.segs[sid]
                saved = tuple((st, ver + shift.get(st, 0)) for st, ver in seg.saved) \
                    if shift else seg.saved
                self.segs[cid] = seg = replace(seg, id=cid, saved=saved)
                if sid in self.seg_reach:
                    self.seg_reach[cid] = self.seg_reach[sid]
                for store, _ in seg.saved:
                    self.saved_by.setdefault(store, []).append(cid)
            return copies[sid]

        def swapped(segs: frozenset) -> frozenset:
            hit = segs & swap
            return segs - hit | {copy_of(sid) for sid in hit} if hit else segs
        if not (v.segs & swap):
            return v
        ref = v.ref
        if isinstance(ref, tuple) and ref and ref[0] == "elem" and isinstance(ref[1], Val):
            # (what each element of a list is: ``D.append({"log_prob": lp, ...})``)
            ref = ("elem", self._with_copies(ref[1], swap, copies, shift))
        elif isinstance(ref, tuple) and ref and ref[0] == "dict":
            ref = ref[:2] + (tuple(self._with_copies(x, swap, copies, shift)
                                   for x in ref[2]),) + ref[3:]
        return replace(v, segs=swapped(v.segs), each=swapped(v.each), ref=ref,
                       elts=tuple(self._with_copies(e, swap, copies, shift) for e in v.elts)
                       if v.elts else v.elts)

    def _refine(self, test, truth: bool) -> None:
        """Narrow ``x is None`` / ``x is not None``, a false ``isinstance(x, tuple)`` and a
        false ``if x:`` in the branch they guard."""
        if isinstance(test, cst.BooleanOperation) and truth and \
                isinstance(test.operator, cst.And):
            self._refine(test.left, True)
            self._refine(test.right, True)
            return
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            self._refine(test.expression, not truth)
            return
        if not truth and isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and \
                test.func.value == "isinstance" and len(test.args) == 2 and \
                isinstance(test.args[0].value, (cst.Name, cst.Attribute)) and \
                self.lookup_key("isinstance") is None:
            # ``isinstance(state, (list, tuple))`` false: a tuple (a tensor, for
            # ``torch.Tensor``) is one, so there the name holds None (a recursive
            # ``detach_states`` falling through to ``return state``)
            names = self._type_names(test.args[1].value) or ()
            self._none_where(test.args[0].value, lambda v: v.kind == "tuple" and "tuple" in names
                             or v.kind == "tensor" and "torch.Tensor" in names)
            return
        if not truth and isinstance(test, (cst.Name, cst.Attribute)):
            # ``if state:`` false: a tuple of known elements is never empty (tuples do
            # not change), so there the name holds None (``state = None`` before a loop
            # that carries an LSTM's ``(h, c)``)
            self._none_where(test, lambda v: v.kind == "tuple" and bool(v.elts))
            return
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
            comp = test.comparisons[0]
            if isinstance(comp.comparator, cst.Name) and comp.comparator.value == "None":
                is_none = isinstance(comp.operator, cst.Is) == truth
                if isinstance(comp.operator, (cst.Is, cst.IsNot)) and is_none:
                    self._none_where(test.left, lambda v: True)

    def _none_where(self, node, held) -> None:
        """In the branch being refined, the name or attribute ``node`` holds None when its
        value satisfies ``held`` (the test rules out every other value)."""
        key = self.key_of(node)
        b = self.state.env.get(key) if key is not None else None
        if b is not None and held(b.val):
            self.state.env[key] = Binding(NONE, b.stmt)

    def exec_loop(self, stmt) -> None:
        is_for = isinstance(stmt, cst.For)
        header = ()
        if is_for:
            it = self._iterator(stmt.iter, self.eval(stmt.iter))
            if self._unrolled_modules(stmt, it):
                return
            if range_length(it) == 0:
                # ``for k in range(1, update_step)`` with update_step == 1: never runs
                if stmt.orelse is not None:
                    self.exec_block(stmt.orelse.body.body)
                return
            item = self._iterated(it)
            alias = self.key_of(stmt.iter) if isinstance(stmt.iter, (cst.Name, cst.Attribute)) \
                and dict_items(it) is None else self._iterated_holder(stmt.iter, True)
            if alias is not None:
                item = replace(item, alias=alias)
            header = (stmt.iter,)
        body = stmt.body.body
        few = is_for and (known_strings(it) is not None or bool(it.elts) and (
            len(it.elts) <= MAX_ELTS and all(known_object(e) for e in it.elts) and
            len({e.ref for e in it.elts}) == len(it.elts)))
        ctx = LoopCtx(self._loop_key(stmt), stmt, self.frame.id,
                      body[0] if body else None, header, few)

        # ``while True:`` (``while 1:``) ends only at a ``break`` (or a return, a raise)
        forever = not is_for and (literal_truth(stmt.test) is True or (
            isinstance(stmt.test, cst.Integer) and literal_int(stmt.test) != 0))

        counter = counter_start(it) if is_for and item.ref == "int" else None

        def nth(k: int) -> Val:
            # the element pass ``k`` gets; a counter (``for epoch in range(n)``, the index
            # of ``enumerate``) is past its start in the later passes
            if counter is not None:
                return pass_counter(*counter, k)
            v = self._nth_element(item, it.each, k)
            if v.kind == "tuple" and v.elts and v.elts[0].ref == "count":
                return replace(v, elts=(pass_counter(0, 1, k),) + v.elts[1:])
            return v

        def run() -> list:
            passes = itertools.count()
            return self._run_loop(ctx, lambda: self._loop_body(
                stmt, is_for, nth(next(passes)) if is_for else None),
                once=forever or is_for and (self._not_empty(stmt.iter, it) or
                                            self._relied_on(stmt)),
                leave=None if is_for else _never_left if forever else
                lambda s: self._assume_test(s, stmt.test, False))
        ends = self._unswitched(stmt, run)
        alias = (item.alias or self._iterated_holder(stmt.iter)) if is_for and it.segs else None
        if alias is not None and alias in self.state.env and all(
                alias in e.env and not e.env[alias].val.segs for e in ends if not e.dead):
            # every iteration detached the elements in place (or emptied them: ``for v in
            # d.values(): v.clear()``); zero iterations means the container was empty:
            # either way no element keeps a graph
            old = self.state.env[alias]
            self.state.env[alias] = Binding(Val(old.val.kind, EMPTY, False, old.val.ref,
                                                old.val.elts and tuple(e.cut() for e in old.val.elts)),
                                            old.stmt)
        if stmt.orelse is not None and not self.state.dead:
            self.exec_block(stmt.orelse.body.body)

    def _iterator(self, node, it: Val) -> Val:
        """What ``for x in obj`` iterates: ``type(obj).__iter__(obj)`` for an object of a
        class of the user's that defines it (a data loader whose ``__iter__`` yields
        batches), else ``obj`` itself."""
        if it.kind not in ("object", "module"):
            return it
        info = self._class_of(it)
        method = self._method(info, "__iter__") if info is not None else None
        if method is None:
            return it
        return self.call_ref(node, self.method_ref(method, info), [], {}, it)

    def _iterated_holder(self, node, elements: bool = False) -> tuple | None:
        """The env key of the container a loop header walks through a view or a copy of
        it (``d.values()``, ``d.items()``, ``list(d)``, ``sorted(d.keys())``, ``reversed(d)``);
        else None.
        ``elements``: only when the loop's elements are the container's own values (a dict's
        ``values()``, not its keys or items)."""
        while isinstance(node, cst.Call):
            if isinstance(node.func, cst.Attribute) and not node.args and \
                    node.func.attr.value in (("values",) if elements else
                                             ("values", "keys", "items")):
                node = node.func.value
                key = self.key_of(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
                if elements and (key not in self.state.env or
                                 self.state.env[key].val.kind != "container"):
                    return None  # (values() of an object that is not known to be a dict)
            elif isinstance(node.func, cst.Name) and len(node.args) == 1 and \
                    node.func.value in ("list", "tuple", "sorted", "reversed") and \
                    node.args[0].keyword is None and not node.args[0].star and \
                    self.lookup_key(node.func.value) is None:
                node = node.args[0].value
            else:
                return None
        return self.key_of(node) if isinstance(node, (cst.Name, cst.Attribute)) else None

    def _unrolled_modules(self, stmt: cst.For, it: Val) -> bool:
        """``for m in net.modules(): ...`` (or ``children()``) over a model whose
        submodules are known, or a loop over a few known optimizers: the body
        runs once for each of them, the target bound to that one (so ``isinstance(m, C)``,
        ``m.reset()`` and ``opt.step()`` resolve). False when the loop is not such a loop
        (or too long to unroll)."""
        if stmt.orelse is not None:
            return False
        unroll = False
        if isinstance(it.ref, tuple) and it.ref[0] in ("modules", "children", "named_modules",
                                                       "named_children"):
            members = sorted(self._module_members(it.ref), key=repr)
            if not members or len(members) > 64 or not any(
                    self._class_of(Val("module", ref=r)) is not None or
                    (isinstance(r, tuple) and r[:1] == ("nn",))
                    for r in members):
                return False
            elements = [Val("module", ref=r) for r in members]
            if it.ref[0].startswith("named_"):  # (name, module) pairs
                elements = [Val("tuple", elts=(SCALAR, e)) for e in elements]
        elif it.elts and len(it.elts) <= 8 and it.kind in ("container", "tuple") and \
                any(_names_a_trainer(e) for e in it.elts):
            # ``for opt in [g_opt, d_opt]``, ``for i, opt in enumerate(optimizers)``: each
            # optimizer in turn, so each step() trains its own modules
            elements = list(it.elts)
        elif it.elts and len(it.elts) <= 8 and it.kind in ("container", "tuple") and \
                len({e.segs for e in it.elts if e.segs}) >= 2:
            # ``for loss in [loss_a, loss_b]``: each tensor in turn, so a backward of one
            # frees that one's graph, not the next element's
            elements = list(it.elts)
        elif it.elts and len(it.elts) <= 8 and it.kind in ("container", "tuple") and \
                all(e.kind == "class" and e.ref is not None for e in it.elts):
            # ``for cls in (PlainRNN, MemoryRNN): model = cls(...)``: each class in turn, so
            # each pass builds and trains a model of its own class
            elements = list(it.elts)
            unroll = True
        elif (entries := self._dict_entries(stmt.iter)) is not None:
            # ``for k in losses:``, ``for name, loss in losses.items():`` over a dict whose
            # keys are all known: each entry in turn (one key: the body runs once)
            elements = entries
        elif self._builds_layers(it):
            elements = [known_int(i) for i in range(*it.ref[2])]
            unroll = True
        elif self._branches_on_index(stmt, it):
            # ``for level in range(2): if level == 0: num = probs`` (each pass takes its
            # own branch): each index in turn
            elements = [known_int(i) for i in range(*it.ref[2])]
        elif self._names_in_constructor(it) or self._attribute_names(stmt, it):
            # ``for name in ("block1", "block2"): getattr(self, name)...``: each name
            elements = list(it.elts)
            unroll = True
        else:
            elements = self._module_sequence(stmt.iter, it)
            if elements is None:
                return False
        saved_exits, saved_passes = self._loop_exits, self.unrolled_passes
        outs = []
        for k, element in enumerate(elements):
            exits = {"break": [], "continue": []}
            self._loop_exits = saved_exits + [exits]
            if unroll:  # (objects each pass makes are objects of their own)
                self.unrolled_passes = saved_passes + ((id(stmt), k),)
            try:
                self.store(stmt.target, element, stmt)
                self.exec_block(stmt.body.body)
            finally:
                self._loop_exits, self.unrolled_passes = saved_exits, saved_passes
            self.state = join_states([self.state] + exits["continue"])
            if exits["break"]:
                outs.extend(exits["break"])
            if self.state.dead:
                break
        self.state = join_states(outs + [self.state])
        return True

    def _dict_entries(self, node) -> list | None:
        """What a loop over ``node`` takes, entry by entry, when ``node`` is a dict (or its
        ``keys()``, ``values()``, ``items()``) read from a name or attribute, whose keys
        are all known and surely there: the keys, the values or ``(key, value)`` pairs."""
        view = None
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
                not node.args and node.func.attr.value in ("keys", "values", "items"):
            view, node = node.func.attr.value, node.func.value
        if not isinstance(node, (cst.Name, cst.Attribute)) or dotted(node) is None:
            return None
        d = self.eval(node)
        keys = known_strings(d) if dict_items(d) is not None else None
        if keys is None:
            return None
        if view == "values":
            return list(d.ref[2])
        if view == "items":
            return [Val("tuple", elts=(k, v)) for k, v in zip(keys, d.ref[2])]
        return keys

    def _builds_layers(self, it: Val) -> bool:
        """A loop over a ``range`` of a few known ints in a constructor (``for i in
        range(n_layers): layers += [ActNorm(d), Coupling(d, flip=i % 2)]``): each pass
        runs with its own ``i``, so each layer is built as itself."""
        n = range_length(it)
        func = self.frame.func
        return n is not None and 0 < n <= MAX_ELTS and len(it.ref) == 3 and \
            isinstance(func, cst.FunctionDef) and func.name.value == "__init__"

    def _branches_on_index(self, stmt: cst.For, it: Val) -> bool:
        """A loop over a ``range`` of at most ``MAX_BRANCHED_PASSES`` known ints whose body
        tests its index for equality with an int in an ``if`` (``if level == 0:``) and
        does not train: the passes take different branches, so the loop runs pass by pass
        with its index known."""
        n = range_length(it)
        if n is None or not 0 < n <= MAX_BRANCHED_PASSES or len(it.ref) != 3 or \
                not isinstance(stmt.target, cst.Name):
            return False
        tested, trains = self.code_fact(_tested_names, stmt.body)
        return stmt.target.value in tested and not trains

    def _names_in_constructor(self, it: Val) -> bool:
        """A loop over a few strings of known value in a constructor (the names of
        submodules to hook or build): each pass runs with its own name."""
        func = self.frame.func
        return _few_strings(it) and isinstance(func, cst.FunctionDef) and \
            func.name.value == "__init__"

    def _attribute_names(self, stmt: cst.For, it: Val) -> bool:
        """A loop over a few strings of known value whose body uses its variable as an
        attribute name (``for name in targets: setattr(block, name, LoRA(getattr(block,
        name)))``): each pass runs with its own name, so each attribute is the one set."""
        return _few_strings(it) and isinstance(stmt.target, cst.Name) and \
            self.code_fact(_names_attribute, stmt) == stmt.target.value

    def _module_sequence(self, node, it: Val) -> list | None:
        """``for layer in self.layers`` (``enumerate(self.layers)``) over an
        ``nn.Sequential`` / ``ModuleList``, a list or a tuple of several known modules
        or objects, or of tuples of them (``for net in (actor, critic)``, ``for agent in
        agents``, ``for target, source in ((t_actor, actor), (t_critic, critic))``): them in
        order (with their index), so that each runs as itself (a frozen conv, an in-place
        ReLU) rather than as a module not known; or over the known modules of an
        ``nn.ModuleDict`` or a dict (``for name, layer in md.items()``, ``md.values()``: ``it``, the header's
        value), in order; else None."""
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
                node.func.attr.value in ("items", "values") and not node.args:
            mods = [k.elts[1] if k.kind == "tuple" and k.elts else k for k in it.elts or ()]
            if not 2 <= len(mods) <= 64 or \
                    not all(k.kind == "module" and isinstance(k.ref, tuple) for k in mods):
                return None
            return list(it.elts)
        numbered = isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and \
            node.func.value == "enumerate" and len(node.args) == 1 and not node.args[0].keyword
        if numbered and (self.lookup_key("enumerate") is not None or
                         not isinstance(node.args[0].value, (cst.Name, cst.Attribute))):
            return None
        v = self.eval(node.args[0].value) if numbered else it
        kids = v.elts if v.kind in ("module", "container", "tuple") else None
        if not kids or not 2 <= len(kids) <= 64 or not all(known_object(k) or (
                k.kind == "tuple" and k.elts and all(map(known_object, k.elts)))
                for k in kids):
            return None
        if not numbered:
            return list(kids)
        return [Val("tuple", elts=(known_int(i), k)) for i, k in enumerate(kids)]

    def _nth_element(self, item: Val, each: frozenset, k: int) -> Val:
        """The element pass ``k`` of a loop gets from a container whose ``each`` segments
        are a different graph in each element: pass 0 the segments themselves, a later
        pass a copy of them, the same copy whenever the container is iterated again (its
        first element is the same tensor the next time round). A generator's elements are
        built when they are taken: their segments save what they saved at the versions of
        now (an optimizer step in an earlier iteration came before them)."""
        own = each & item.segs
        if not own:
            return item
        if item.elts:  # a zip's or enumerate's tuple: each part gets its copy
            item = replace(item, elts=tuple(self._nth_element(e, each, k) for e in item.elts))
        versions, copies = self.state.versions, set()
        for sid in own:
            cid = sid if not k else self.elem_copies.get((sid, k))
            if cid is None:
                cid = self.elem_copies[(sid, k)] = next(self._ids)
                self.segs[cid] = seg = replace(self.segs[sid], id=cid)
                if sid in self.seg_reach:
                    self.seg_reach[cid] = self.seg_reach[sid]
                for store, _ in seg.saved:
                    self.saved_by.setdefault(store, []).append(cid)
            seg = self.segs[cid]
            if sid in self.lazy_segs and any(versions.get(st, 0) != v for st, v in seg.saved):
                cid = next(self._ids)
                self.segs[cid] = seg = replace(seg, id=cid, saved=tuple(
                    (st, versions.get(st, 0)) for st, _ in seg.saved))
                if sid in self.seg_reach:
                    self.seg_reach[cid] = self.seg_reach[sid]
                for store, _ in seg.saved:
                    self.saved_by.setdefault(store, []).append(cid)
            copies.add(cid)
        return replace(item, segs=(item.segs - own) | copies)

    def _iteration_of(self, index) -> int | None:
        """For an index that is the target of a ``for`` loop being analysed (``i`` in
        ``for i in range(n): losses[i]``), which pass of that loop this is."""
        if not isinstance(index, cst.Name):
            return None
        key = self.lookup_key(index.value)
        b = self.state.env.get(key) if key else None
        if b is None or not isinstance(b.stmt, cst.For):
            return None
        for ctx, pass_id in reversed(self.loop_stack):
            if ctx.node is b.stmt:
                return self.pass_index.get(pass_id)
        return None

    def _loop_key(self, node) -> int:
        return self.loop_keys.setdefault(id(node), len(self.loop_keys) + 1)

    def _loop_body(self, stmt, is_for: bool, item: Val | None) -> None:
        if is_for:
            self.store(stmt.target, item, stmt)
        else:
            self.eval(stmt.test)
            cond = self.cond_of(stmt.test)
            if cond is not None:  # a pass runs while the test holds
                self.state.assume(cond)
        self.exec_block(stmt.body.body)

    def _assume_test(self, state: State, test, truth: bool) -> State:
        """A copy of ``state`` narrowed to the paths on which ``test`` (not a call: it is
        not evaluated again) comes out ``truth`` there."""
        if isinstance(_without_not(test)[0], cst.Call) or state.dead or \
                not (state.guarded or state.free_guards or state.version_guards):
            return state
        saved, self.state = self.state, state
        try:
            cond = self.cond_of(test)
        finally:
            self.state = saved
        if cond is None:
            return state
        out = state.copy()
        out.assume(cond if truth else cond.negated())
        return out

    def _not_empty(self, node, val: Val) -> bool:
        """Whether a ``for`` loop over ``node`` (of value ``val``) surely runs its body
        at least once: a literal or a tuple of known elements that has some, a ``range``
        of literal bounds that is not empty, a ``zip`` / ``enumerate`` of such."""
        if isinstance(node, (cst.Tuple, cst.List)):
            return bool(node.elements) and not any(
                isinstance(e, cst.StarredElement) for e in node.elements)
        if val.kind == "tuple" and val.elts:
            return True
        if range_length(val):
            return True
        if val.kind == "container" and isinstance(val.store, tuple) and \
                val.store[0] == "param" and self._has_parameters(val.store[1]):
            return True
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and
                node.args and all(a.keyword is None and not a.star for a in node.args)):
            return False
        name = node.func.value
        if name == "range":
            bounds = [literal_int(a.value) for a in node.args]
            return None not in bounds and len(bounds) <= 3 and len(range(*bounds)) > 0
        if name in ("zip", "enumerate") and self.lookup_key(name) is None:
            args = node.args if name == "zip" else node.args[:1]
            return all(self._not_empty(a.value, self._peek(a.value)) for a in args)
        return False

    def _has_parameters(self, ref) -> bool:
        """Whether module ``ref`` surely has parameters (``net.parameters()`` is not
        empty): it or a submodule holds an ``nn.Parameter`` attribute, or is a torch.nn
        module that has parameters however it is built (the table's ``always_params``)."""
        mods = self._descendants({ref})
        if any(isinstance(r, tuple) and r[0] == "nn" and r[1] in T.ALWAYS_PARAMS_MODULES
               for r in mods):
            return True
        return any(k[0] == "@" and k[1] in mods and isinstance(b.val.store, tuple) and
                   b.val.store[0] in ("p", "param") for k, b in self.state.env.items())

    def _relied_chain(self, stmt: cst.If) -> None:
        """For an ``if``/``elif`` chain with no ``else`` (at its first ``if``, the first
        time it is reached): whether every branch binds a name that is unbound here and
        that the enclosing function reads outside the chain (``if objective == "H": loss
        = ...`` ``elif objective == "B": loss = ...``, then ``loss.backward()``). Taking
        no branch would raise UnboundLocalError, so the code relies on one being taken:
        recorded for the chain's last ``if`` (:attr:`relied_ifs`)."""
        if id(stmt) in self.relied_ifs:
            return
        self.relied_ifs[id(stmt)] = False
        branches, last = [], stmt
        while True:
            branches.append(last.body)
            if not isinstance(last.orelse, cst.If):
                break
            last = last.orelse
        if last.orelse is not None or id(last) in self.relied_ifs:
            return
        common = frozenset.intersection(*(self.code_fact(_bound_names, b) for b in branches))
        unbound = {n for n in common if self.lookup_key(n) is None}
        self.relied_ifs[id(last)] = bool(unbound) and self._read_outside(unbound, stmt)

    def _read_outside(self, names: set, stmt) -> bool:
        """Whether the function (or module) being run names one of ``names`` outside
        ``stmt`` (False in a lambda or an imported module's body)."""
        scope = self.frame.func if self.frame.func is not None else \
            self.module if self.frame.id == self.gid else None
        if not isinstance(scope, (cst.FunctionDef, cst.Module)):
            return False
        everywhere, inside = self.code_fact(_name_counts, scope), self.code_fact(_name_counts, stmt)
        return any(everywhere.get(n, 0) > inside.get(n, 0) for n in names)

    def _relied_on(self, stmt: cst.For) -> bool:
        """Whether the code relies on a ``for`` loop running: the first time it is
        reached, a name its body binds is unbound, and the enclosing function (or module)
        reads that name outside the loop (``for t in ...: out, h = rnn(x[t], h)`` then
        ``out[:, :k]``): were the loop empty, that read would raise NameError (or
        UnboundLocalError), so the code is written for loops that run."""
        known = self.relied_loops.get(id(stmt))
        if known is None:
            unbound = {n for n in self.code_fact(_bound_names, stmt)
                       if self.lookup_key(n) is None}
            known = self.relied_loops[id(stmt)] = bool(unbound) and \
                self._read_outside(unbound, stmt)
        return known

    def _peek(self, node) -> Val:
        """The value a name holds, read without effects (UNKNOWN for anything else)."""
        key = self.key_of(node) if isinstance(node, cst.Name) else None
        b = self.state.env.get(key) if key is not None else None
        return b.val if b is not None else UNKNOWN

    def _run_loop(self, ctx: LoopCtx, body, once: bool = False, leave=None) -> list:
        """Run ``body`` for LOOP_PASSES passes; exits are the entry state (zero
        iterations, unless the loop surely runs ``once``), each pass's end and every
        ``break`` (``leave`` gives the state in which the loop's test lets it end, from
        the state it is tested in). Returns the passes' end states."""
        entry = self.state
        leave = leave or (lambda s: s)
        outs = [] if once else [leave(entry)]
        ends = []
        head = entry
        saved_exits = self._loop_exits
        self._loop_exits = list(saved_exits)
        # loops nested deeper than MAX_LOOP_NESTING run once: passes multiply with depth
        passes = LOOP_PASSES if len(self.loop_stack) < MAX_LOOP_NESTING else 1
        for k in range(passes):
            self.state = head.copy()
            exits = {"break": [], "continue": []}
            self._loop_exits.append(exits)
            pass_id = next(self._ids)
            self.pass_loop[pass_id] = ctx.key
            self.pass_index[pass_id] = k
            self.loop_stack.append((ctx, pass_id))
            self.pass_undecided[pass_id] = self.undecided
            # what crosses into this pass (not changed; the pass starts with its keys)
            self.entry_envs[pass_id] = head.env
            try:
                body()
            finally:
                self.loop_stack.pop()
                self._loop_exits.pop()
            end = join_states([self.state] + exits["continue"])
            outs.extend(exits["break"])
            outs.append(leave(end))
            ends.append(end)
            if k + 1 < passes:
                end = _widened(end, entry)
            # the next iteration starts where this one ended (or continued): only the
            # loop's exit joins the entry state (zero iterations)
            head = end
        self._loop_exits = saved_exits
        # (the loop may end after any pass: a graph one pass freed and let go is not
        # freed in what an earlier pass's end still holds)
        if len({frozenset(o.freed) for o in outs if not o.dead}) > 1:
            outs = [o.copy() for o in outs]  # (a pass's end is also the next one's head)
            for i, a in enumerate(outs):
                for b in outs[i + 1:]:
                    self._let_go(a, b)
        self.state = join_states(outs)
        return ends

    def exec_with(self, stmt: cst.With) -> None:
        grad_off = 0
        grad_on = False
        autocast = 0
        for item in stmt.items:
            v = self.eval(item.item)
            kind = self._grad_context(item.item)
            if kind == "off":
                grad_off += 1
            elif kind == "on":
                grad_on = True
            autocast += self._autocast_context(item.item)
            if item.asname is not None:
                self.store(item.asname.name, v)
        saved = self.no_grad
        self.no_grad = 0 if grad_on else self.no_grad + grad_off
        self.no_grad_sites.append(stmt if grad_off and not grad_on else None)
        self.autocast += autocast
        try:
            self.exec_block(stmt.body.body)
        finally:
            self.no_grad = saved
            self.no_grad_sites.pop()
            self.autocast -= autocast

    def _autocast_context(self, expr) -> bool:
        """Whether ``expr`` enters an autocast region (``torch.autocast("cuda")``,
        ``torch.cuda.amp.autocast()``, ``torch.amp.autocast(...)``), not one given
        ``enabled=False``."""
        if not isinstance(expr, cst.Call):
            return False
        f = self.eval(expr.func)
        if f.kind != "ns" or not isinstance(f.ref, str) or not f.ref.startswith("torch.") or \
                not f.ref.endswith(".autocast"):
            return False
        return not any(a.keyword is not None and a.keyword.value == "enabled" and
                       literal_truth(a.value) is False for a in expr.args)

    def exec_try(self, stmt) -> None:
        entry = self.state
        self.state = entry.copy()
        self.exec_block(stmt.body.body)
        body_end = self.state
        if stmt.orelse is not None:
            self.exec_block(stmt.orelse.body.body)
        outs = [self.state]
        for h in stmt.handlers:
            self.state = join_states([entry, body_end]) if not body_end.dead else entry.copy()
            self.state.dead = False
            self.exec_block(h.body.body)
            outs.append(self.state)
        self.state = join_states(outs)
        if stmt.finalbody is not None:
            dead = self.state.dead
            self.state.dead = False
            self.exec_block(stmt.finalbody.body.body)
            self.state.dead = self.state.dead or dead


def _never_left(state: State) -> State:
    """The state a ``while True:`` loop's test would end it in: none (dead; it keeps what
    was bound, for code that runs after a dead end is undone, as a call's return)."""
    out = state.copy()
    out.dead = True
    return out


def _without_not(test) -> tuple:
    """``test`` without the ``not``s around it, and whether it counts as itself (an even
    number of them)."""
    truth = True
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test, truth = test.expression, not truth
    return test, truth


def _widened(state: State, entry: State) -> State:
    """The state a later pass of a loop starts from: ints of known value that the loop
    changed (``step += 1``) are not known any more (the pass stands for every later
    iteration, not the second one only)."""
    env = state.env
    changed = [k for k in entry.env.changed(env)
               if (b := env.get(k)) is not None and int_of(b.val) is not None
               and b is not entry.env.get(k)]
    if not changed:
        return state
    state = state.copy()
    for k in changed:
        state.env[k] = Binding(SCALAR, state.env[k].stmt)
    return state


def _names_a_trainer(v: Val) -> bool:
    """Whether a value is (or is a tuple holding) a known optimizer. (A loop over models
    runs its passes: what it appends per model is told apart by pass, ``losses[i]``.)"""
    if v.kind == "tuple" and v.elts:
        return any(_names_a_trainer(e) for e in v.elts)
    return v.kind == "optimizer" and v.ref is not None


def _name_counts(node) -> dict:
    """How many times each name occurs in ``node`` (see :func:`~gradguard.analysis.frames.walk_scope`)."""
    counts: dict = {}
    for n in walk_scope(node):
        if isinstance(n, cst.Name):
            counts[n.value] = counts.get(n.value, 0) + 1
    return counts


def _bound_names(node) -> frozenset:
    """The names a loop, or a block, binds: assignment, ``for`` and ``with`` targets,
    ``:=`` (see :func:`~gradguard.analysis.frames.walk_scope`)."""
    names: set = set()
    for n in walk_scope(node):
        if isinstance(n, (cst.AssignTarget, cst.For, cst.AnnAssign, cst.NamedExpr)):
            names |= {t.value for t in names_in(n.target)}
        elif isinstance(n, cst.AsName):
            names |= {t.value for t in names_in(n.name)}
    return frozenset(names)


def _few_strings(it: Val) -> bool:
    """A list or tuple of a few strings of known value."""
    return it.kind in ("tuple", "container") and it.elts is not None and \
        0 < len(it.elts) <= MAX_ELTS and all(
            e.kind == "scalar" and isinstance(e.ref, tuple) and e.ref[0] == "str"
            for e in it.elts)


def _names_attribute(stmt: cst.For) -> str | None:
    """The loop variable of ``stmt`` when its body hands it to ``getattr`` / ``setattr`` /
    ``hasattr`` / ``delattr`` as the attribute name; else None."""
    name = stmt.target.value if isinstance(stmt.target, cst.Name) else None
    used = m.findall(stmt.body, m.Call(
        func=m.Name("getattr") | m.Name("setattr") | m.Name("hasattr") | m.Name("delattr"),
        args=[m.DoNotCare(), m.Arg(value=m.Name(name) if name else m.DoNotCare()),
              m.ZeroOrMore()]))
    return name if name is not None and used else None

