"""Loop unswitching (a mixin of :class:`~gradguard.analysis.interp.Interpreter`): a test
that reads only names and attributes a loop never assigns comes out the same in every
iteration, so the loop runs once for each way its first such tests can come out, and the
runs join (``if self.method == "uwl":`` set ``loss`` in one run, the ``else`` in another;
no iteration follows one branch after another took the other)."""

from __future__ import annotations

import itertools

import libcst as cst

from gradguard.analysis.control_flow import _bound_names
from gradguard.analysis.frames import SCOPES, children_of, walk_scope
from gradguard.analysis.python_semantics import names_in, names_read
from gradguard.analysis.values import Cond, join_states

MAX_UNSWITCHED = 2
"""Loop-invariant tests a loop is run separately for (2 ** MAX_UNSWITCHED runs at most)."""



class Unswitching:
    """Runs a loop once per outcome of its loop-invariant tests."""

    def _unswitched(self, stmt, run) -> list:
        """Run the loop ``stmt`` (``run`` runs it from the current state and returns its
        passes' end states) once for each way its loop-invariant tests can come out, and
        join the results: a test that reads only names and attributes the loop never
        assigns comes out the same in every iteration (``if self.method == "uwl":``), so
        no iteration follows one branch after another took the other. At most
        :data:`MAX_UNSWITCHED` tests, the first in the loop's text, each one of whose
        branches assigns something (a test whose outcome is known takes its branch
        before the run's choice is looked at)."""
        # (a loop inside an unswitched loop of the same function is run under the choices
        # of that one, which covered its tests; a called function's loop has tests of
        # its own: one level of those more)
        levels = self.unswitch_frames
        tests = self._invariant_tests(stmt) \
            if self.frame.id not in levels and len(levels) < 2 else ()
        if not tests:
            return run()
        entry, outs, ends = self.state, [], []
        for truths in itertools.product((True, False), repeat=len(tests)):
            self.state = entry.copy()
            forced = [c if t else c.negated() for c, t in zip(tests, truths)]
            for c in forced:
                self.state.assume(c)
            self.forced_tests.extend(forced)
            self.unswitch_frames.append(self.frame.id)
            self.undecided += 1  # (each run is one of the ways the tests may come out)
            try:
                ends += run()
            finally:
                del self.forced_tests[-len(forced):]
                self.unswitch_frames.pop()
                self.undecided -= 1
            outs.append(self.state)
        self.state = join_states(outs)
        return ends

    def _invariant_tests(self, stmt) -> list:
        """The :class:`Cond` (as of now, the loop's entry) of the first
        :data:`MAX_UNSWITCHED` ``if`` tests in loop ``stmt`` that read only names and
        attributes it never assigns, not already forced by an enclosing loop, one of whose
        branches assigns something."""
        out: list = []
        for node in self.code_fact(_invariant_ifs, stmt):
            if len(out) == MAX_UNSWITCHED:
                break
            cond = self.cond_of(node.test)
            if cond is None or any(c._same_test(cond) for c in out + self.forced_tests):
                continue
            out.append(Cond(cond.text, cond.bindings, True))
        return out

    def _forced_outcome(self, test) -> bool | None:
        """The outcome of ``test`` that an enclosing loop's unswitching fixed for this run
        (:meth:`_unswitched`), when it is the same test on the same bindings; else None."""
        if not self.forced_tests:
            return None
        cond = self.cond_of(test)
        if cond is None:
            return None
        for c in self.forced_tests:
            if c._same_test(cond):
                return c.truth == cond.truth
        return None


def _invariant_ifs(loop) -> tuple:
    """The ``if`` statements in ``loop`` (see :func:`~gradguard.analysis.frames.walk_scope`), in text order, whose test
    reads no name the loop assigns and which assign a name or attribute that the loop's
    text does not assign before them (so that its value may come from an earlier
    iteration: ``loss`` set under the test, read after it), and not on every path
    through them."""
    written = _written_names(loop)
    prior = set(names_read(loop.target)) if isinstance(loop, cst.For) else set()
    out = []
    for n in _preorder(loop.body):
        if isinstance(n, cst.If) and not names_read(n.test) & written and \
                _written_names(n) - _surely_bound_if(n) - prior:
            out.append(n)
        if isinstance(n, (cst.AugAssign, cst.AssignTarget, cst.AnnAssign, cst.Del,
                          cst.NamedExpr)):
            prior |= _written_names(n)
        elif isinstance(n, cst.For):  # (its target; what its body assigns comes later)
            prior |= names_read(n.target)
        elif isinstance(n, cst.AsName):
            prior |= names_read(n.name)
    return tuple(out)


def _preorder(root):
    """The nodes under ``root`` in text order, as :func:`~gradguard.analysis.frames.walk_scope`."""
    todo = [root]
    while todo:
        n = todo.pop()
        yield n
        if n is root or not isinstance(n, SCOPES):
            todo.extend(reversed(children_of(n)))


def _written_names(node) -> frozenset:
    """The names and attribute names ``node`` assigns, augments or deletes (see
    :func:`~gradguard.analysis.frames.walk_scope`): ``x``, ``x.a`` and ``x[i].a`` give ``x`` and ``a``; ``x[i] = v``
    gives ``x``."""
    names = set(_bound_names(node))
    for n in walk_scope(node):
        if not isinstance(n, (cst.AugAssign, cst.AssignTarget, cst.AnnAssign, cst.For,
                              cst.Del)):
            continue
        names |= {t.value for t in names_in(n.target)}
        for part in walk_scope(n.target):
            if isinstance(part, cst.Attribute):
                names.add(part.attr.value)
            elif isinstance(part, cst.Subscript):
                root = part.value
                while isinstance(root, (cst.Subscript, cst.Attribute)):
                    root = root.value
                if isinstance(root, cst.Name):
                    names.add(root.value)
    return frozenset(names)


def _surely_bound_if(node: cst.If) -> set:
    """The names and attribute names every branch of an ``if`` chain with a final
    ``else`` assigns at its top level (an ``if`` chain in a branch counts by this too)."""
    if node.orelse is None:
        return set()
    other = _surely_bound_if(node.orelse) if isinstance(node.orelse, cst.If) else \
        _surely_bound(node.orelse.body.body)
    return _surely_bound(node.body.body) & other


def _surely_bound(stmts) -> set:
    names: set = set()
    for st in stmts:
        if isinstance(st, cst.If):
            names |= _surely_bound_if(st)
        for small in st.body if isinstance(st, cst.SimpleStatementLine) else ():
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
                [small.target] if isinstance(small, cst.AnnAssign) and small.value else []
            for t in targets:
                names |= {n.value for n in names_in(t)}
                if isinstance(t, cst.Attribute):
                    names.add(t.attr.value)
    return names
