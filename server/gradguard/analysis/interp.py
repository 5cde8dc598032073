"""The abstract interpreter: walks libcst statements in execution order over :class:`State`.

It imitates what autograd does at run time (DESIGN.md section 1): operations on values
that require grad create graph segments; ``backward`` / ``autograd.grad`` walk and free
the segments of their root unless ``retain_graph`` (or ``create_graph``) is set; a later
walk through a freed segment that saved tensors raises
``RuntimeError: Trying to backward through the graph a second time``
(torch/csrc/autograd/saved_variable.cpp, ``ERR_BACKWARD_TWICE``).

Loops run twice (the second pass sees what the first freed); branches join; calls of
functions, methods and ``forward`` of classes defined in the same file are interpreted
inline with the caller's argument values (bounded depth and budget). Results are
:class:`Hazard` events; the rules turn them into findings.
"""

from __future__ import annotations

import dataclasses
import itertools

import libcst as cst

from gradguard.analysis import torchapi as T
from gradguard.analysis.autograd_effects import AutogradEffects
from gradguard.analysis.calls import Calls
from gradguard.analysis.cli_options import CliOptions
from gradguard.analysis.control_flow import ControlFlow
from gradguard.analysis.events import (Accumulation, Backward, DiscardedDetach, Hazard,
                                       InplaceHazard, NoGraph, Step)
from gradguard.analysis.frames import MAX_STEPS, Budget, ClassInfo, Frame, FuncRef, LoopCtx, is_global
from gradguard.analysis.import_semantics import ImportSemantics
from gradguard.analysis.module_semantics import ModuleSemantics
from gradguard.analysis.optimizers import OptimizerSemantics
from gradguard.analysis.python_semantics import PythonSemantics
from gradguard.analysis.torch_semantics import TorchSemantics
from gradguard.analysis.unswitch import Unswitching
from gradguard.analysis.values import EMPTY, Binding, Env, Seg, State, Val, dict_items, \
    dict_sure_keys

__all__ = ["Interpreter", "Hazard", "InplaceHazard", "Accumulation", "DiscardedDetach",
           "NoGraph", "Backward", "Step"]


class Interpreter(PythonSemantics, Calls, ControlFlow, Unswitching, ImportSemantics,
                  TorchSemantics, ModuleSemantics, OptimizerSemantics, CliOptions,
                  AutogradEffects):
    """Interprets one file's roots (module code, functions, methods) and collects hazards.

    Use :meth:`run_module`, then :meth:`run_function` for each top-level function and
    method; read :attr:`hazards`, :attr:`detaches` and :attr:`segs`.
    """

    def __init__(self, module: cst.Module, tops: dict | None = None, gid: str = "G",
                 imports=None, code_facts: dict | None = None):
        self.module = module
        self.gid = gid
        self.imports = imports
        self.method_gids: dict[int, str] = {}
        self.import_depth = 0
        # facts read off code, shared by the roots of one module analysis (and kept by an
        # incremental engine for the nodes an edit left alone): see code_fact
        self.code_facts: dict = code_facts if code_facts is not None else {}
        # (imports, module, level, depth) -> what an import of the user's code names
        # (imports.Loaded, or None), looked up once per module analysis
        self.found_modules: dict = {}
        # class key -> (class node, instance, interpreter after its __init__): see
        # _instance_after_init, shared by the roots of one module analysis
        self.init_starts: dict = {}
        self.frozen: set = set()  # module refs whose parameters do not require grad
        # of those (or of modules unfrozen again), the ones whose flag was set on a path
        # an undecided test chose: whether they require grad is not known
        self.maybe_frozen: set = set()
        self.unfrozen_at: dict = {}  # module ref -> where it was first unfrozen again
        self.undecided = 0  # branches of undecided tests being run
        self.pass_undecided: dict[int, int] = {}  # loop pass -> ``undecided`` at its start
        self.loaded: dict = {}  # gid -> imports.Loaded: the user's modules imported
        self.deps: set = set()  # (path, sha256) of each
        # the global frames of imported modules whose names, classes or code this run
        # read (what a function root's result depends on of them: Engine._start)
        self.touched: set = set()
        self.segs: dict[int, Seg] = {}
        self.hazards: list[Hazard] = []
        self.detaches: list[DiscardedDetach] = []
        self.stale_uses: list[tuple] = []
        # (storage, version) -> ((in-place node, (frame id, stmt) path), top statement):
        # the change that made that version
        self.bumps: dict = {}
        self.inplace_ctors: dict = {}
        # torch.nn module refs built with an option that makes their forward change their
        # parameters in place (``Embedding(max_norm=1.0)``)
        self.self_changing: set = set()
        self.self_changes: set = set()  # ids of the calls of those that changed them
        # (env key of a dict, name of the key's variable) -> (their bindings, the value)
        # of the last ``d[k] = v`` (python_semantics._note_slot)
        self.slot_writes: dict = {}
        # torch.nn module ref -> (flag, statement) of ``m.inplace = flag`` set after it was built
        self.inplace_flags: dict = {}
        self.inplace_modules: dict = {}
        self.container_calls: set = set()  # calls of an nn.Sequential: its children ran there
        self.entry_envs: dict = {}
        # (object, attribute) pairs once assigned a value computed from their own old one
        self.self_updated: set = set()
        # module ref -> (id, frames, loop passes) of the assignment that replaced it as a
        # submodule
        self.replaced_modules: dict = {}
        # ids of the ``checkpoint(...)`` calls run without grad (no input requires grad)
        self.checkpoint_calls: set = set()
        # attribute key -> {statement that stored a graph there: the segments it stored}
        self.attr_stores: dict = {}
        self.accumulations: dict = {}
        self.accumulator_keys: set = set()  # the keys of their accumulators
        # env key -> loop passes in which it was bound anew to a value with no graph, on
        # every path of the pass (AutogradEffects.released)
        self.fresh_in: dict = {}
        # env keys of containers whose length an enclosing ``if`` bounds (capped buffers)
        self.capped: list = []
        self.consumed: set = set()
        # accumulations into a list consumed by a backward in a loop's first pass, when it
        # held one element only: undone by a later pass's backward that holds fewer than
        # all (``AutogradEffects._holds_accumulator``)
        self.consumed_first: set = set()
        self.passes_with_backward: set = set()
        self.retained_carries: list = []
        self.saved_by: dict = {}
        self.inplace: list = []
        # frame id -> in-place hazards on what its nodes saved, kept if it lets them out
        self.pending_inplace: dict = {}
        self.submodules: dict = {}
        self.ctx_saved: dict = {}
        self._ids = itertools.count(1)
        self.ids_after_module = 1  # past the ids run_module gave
        self.classes: dict[str, ClassInfo] = {}
        self.frames: list[Frame] = []
        self.loop_stack: list[tuple[LoopCtx, int]] = []
        self.no_grad = 0
        self.autocast = 0  # depth of autocast-enabled regions (``with torch.autocast(...)``)
        self.depth = 0
        self.steps = 0
        self.foreign_steps = 0  # of ``steps``, those in imported modules' code
        self.param_updates = 0
        self.step_log: list = []    # the Trained of each optimizer step, in order
        self.state = State()
        self.global_env: dict = {}
        self._seen_hazards: set = set()
        self._seen_detach: set = set()
        self.loop_keys: dict[int, int] = {}
        # the Cond a call's function returned on every path (``return self.done``): the call
        # node, and that Cond (``if self.time_to_learn():`` tests what it returned)
        self.returned_cond: tuple | None = None
        self.cond_texts: dict[int, str] = {}
        # the loop-invariant tests an enclosing loop is being run for, each as it comes out
        # in this run (ControlFlow._unswitched)
        self.forced_tests: list = []
        self.unswitch_frames: list = []  # the frame of each loop being run so, outermost first
        self.relied_loops: dict[int, bool] = {}  # for loops the code relies on running
        self.relied_ifs: dict[int, bool] = {}  # if chains (their last if) relied on to branch
        # top-level statement of each function and method, for position hints
        self.tops: dict[int, cst.CSTNode] = tops if tops is not None else {}
        if tops is None:
            for st in module.body:
                self.tops[id(st)] = st
                if isinstance(st, cst.ClassDef) and isinstance(st.body, cst.IndentedBlock):
                    for m in st.body.body:
                        self.tops[id(m)] = st
        self.event_tops: list = []
        self.inlined: set[int] = set()
        self.completed: set[int] = set()  # functions a call ran to the end of, inline
        self.pass_loop: dict[int, int] = {}
        self._loop_exits: list = []
        self.elem_copies: dict[tuple[int, int], int] = {}
        self.lazy_segs: set[int] = set()
        self.pass_index: dict[int, int] = {}
        # graphs cut too early (GG401, GG402)
        self.no_graph: list[NoGraph] = []
        self.unrolled_passes: tuple = ()  # (loop id, pass) of constructor loops run pass by pass
        # ``net.head.requires_grad = True``: (statement, module ref, flag), a plain attribute
        # of the module object, not its parameters' flag
        self.module_flag_sets: list = []
        # storage -> the call or statement that made a tensor known to have no graph (cut
        # from one) a new leaf that requires grad: ``loss.requires_grad_(True)``, the
        # usual silencer of "element 0 of tensors does not require grad"
        self.silencers: dict = {}
        self.backwards: list[Backward] = []
        self.step_recs: list[Step] = []
        self.seg_reach: dict[int, tuple] = {}  # segment -> (module refs, wild)
        self.no_grad_sites: list = []  # the no_grad blocks in force (None: the engine's)
        self.cut_log: list = []  # (Cut of a graph, stamp)
        self.escaped: set = set()  # module refs handed to code the engine does not follow
        # module refs constructed in this root -> an id drawn when each was (ids grow)
        self.created: dict = {}
        self.copies: set = set()  # module refs made by copy.deepcopy (a target network)
        # module refs whose parameters something changed in a loop or loaded (GG403)
        self.param_writes: set = set()
        self.module_inputs: dict = {}  # module ref -> segments of the graphs it was run on
        # module ref -> (the name it was first assigned to, the frame of that variable, or
        # None for an attribute)
        self.module_names: dict = {}
        # frame id of an inlined call -> (the caller's frame id, the call, its arguments'
        # expressions with the segments each carried): where a fix inside a callee
        # is written at the call instead
        self.call_sites: dict = {}
        self.forward_hooks: dict = {}  # module ref -> the hooks register_forward_hook gave it
        # the segments and storages of tensors given a backward hook (``register_hook``)
        self.hooked: set = set()
        # frames that returned, keeping the variables their nested functions read: id ->
        # lexical parent id
        self.closure_frames: dict = {}
        # the optimizers built (their Trained), that a module's zero_grad() may clear
        self.optimizers: set = set()
        self.grown: set = set()  # of those, the ones given more by add_param_group()
        # optimizer (its Trained) -> the modules a backward reached since its zero_grad()
        # set their gradients to None (None: not known which)
        self.grads_since_clear: dict = {}
        # optimizer -> (call, statement, backwards run so far) of its last zero_grad()
        self.cleared_at: dict = {}
        self.cleared_keys: set = set()  # the state's ("#cleared", id) keys (mark_cleared)

    def run_module(self) -> None:
        """Interpret the module body (top-level statements, inlining calls)."""
        frame = Frame(self.gid, None, None, gid=self.gid)
        self.frames = [frame]
        self.state = State()
        try:
            self.exec_block(self.module.body)
        except Budget:
            pass
        self.ids_after_module = next(self._ids)
        # later roots see the module's names, but not its graphs
        self.global_env = {k: Binding(self._strip(b.val), b.stmt)
                           for k, b in self.state.env.items() if k[0] == "@" or is_global(k[0])}

    def for_root(self) -> "Interpreter":
        """A fresh interpreter for another root of the same module, starting from what
        :meth:`run_module` left here (module-level names, classes, which objects are
        submodules of which, in-place module constructors) and sharing nothing else, so
        each root's events depend only on the module and that root."""
        other = Interpreter(self.module, self.tops, self.gid, self.imports)
        # ids past the module run's: a closure it made (``to_2tuple = _ntuple(2)``) names
        # its defining frame by id, which no frame of this root may reuse
        other._ids = itertools.count(self.ids_after_module)
        other.global_env = self.global_env
        other.classes = dict(self.classes)
        other.method_gids = self.method_gids
        other.code_facts = self.code_facts
        other.found_modules = self.found_modules
        other.init_starts = self.init_starts
        other.loaded = dict(self.loaded)
        other.deps = set(self.deps)
        other.submodules = {k: set(v) for k, v in self.submodules.items()}
        other.inplace_ctors = dict(self.inplace_ctors)
        other.self_changing = set(self.self_changing)
        other.self_changes = set(self.self_changes)
        other.inplace_flags = dict(self.inplace_flags)
        other.frozen = set(self.frozen)
        other.maybe_frozen = set(self.maybe_frozen)
        other.unfrozen_at = dict(self.unfrozen_at)
        return other

    def run_function(self, func: cst.FunctionDef, cls: ClassInfo | None) -> None:
        """Interpret one function or method alone, its parameters unknown."""
        self.state = State(dict(self.global_env))
        self.frames = [Frame(self.gid, None, None, gid=self.gid)]
        self.loop_stack = []
        self.no_grad = 0
        self.autocast = 0
        self.no_grad_sites = []
        self.steps = 0
        self_val = None
        if cls is not None and not self._is_static(func):
            self_val = self._instantiate(cls, func, run_init=False) \
                if func.name.value == "__init__" else self._instance_after_init(cls, func)
        elif cls is not None:  # a classmethod's root gets its class
            self_val = self.bound_to(func, cls, None)[1]
        # (a LightningModule's validation/test/predict step runs with grad off: its Trainer's)
        ref = FuncRef(func, self.gid, cls, gid=self.gid, no_grad=self._decorated_no_grad(func) or (
            cls is not None and cls.lightning and func.name.value in T.LIGHTNING_NO_GRAD_HOOKS))
        try:
            self.call_ref(None, ref, [], {}, self_val, unknown_params=True)
        except Budget:
            pass

    def _instance_after_init(self, cls: ClassInfo, func) -> Val:
        """The instance a method root of ``cls`` starts from: ``__init__`` run with
        unknown arguments. Every method root of a class starts it from the same state
        (what :meth:`run_module` left), so it is interpreted once per module analysis and
        the class's other method roots start from a copy of this interpreter as that run
        left it (its events included, as if run again)."""
        kept = self.init_starts.get(cls.key)
        if kept is not None and kept[0] is cls.node:
            count, fields = kept[2]
            self._ids = itertools.count(count)
            for name, value in fields.items():
                setattr(self, name, _copied(value))
            return kept[1]
        self_val = self._instantiate(cls, func, run_init=True)
        count = next(self._ids)
        self._ids = itertools.count(count)
        self.init_starts[cls.key] = (cls.node, self_val, (count, {
            name: _copied(value) for name, value in vars(self).items()
            if name not in _SHARED_BY_ROOTS}))
        return self_val

    @staticmethod
    def _strip(v: Val) -> Val:
        """The value without its graph: what a later root may assume about it."""
        items = dict_items(v)
        if items:
            # a dict literal's values, without their graphs too
            kept = tuple(Interpreter._strip(x) for x in items[1])
            return Val(v.kind, ref=("dict", items[0], kept, dict_sure_keys(v)))
        if isinstance(v.ref, tuple) and v.ref[0] == "elem":  # a list of tuples
            return Val(v.kind, ref=("elem", Interpreter._strip(v.ref[1])))
        if v.kind == "tensor" and v.leaf and isinstance(v.store, tuple) and \
                v.store[0] in ("p", "param"):
            # an nn.Parameter: a leaf that requires grad in every call, not a graph
            return Val(v.kind, leaf=True, ref=v.ref, store=v.store)
        if v.kind in ("tensor", "unknown", "tuple", "container", "dist"):
            return Val(v.kind, ref=v.ref)
        if v.kind == "module" and v.elts:
            # a Sequential / ModuleList keeps its children
            return Val(v.kind, EMPTY, v.leaf, v.ref, tuple(Interpreter._strip(e) for e in v.elts))
        return Val(v.kind, EMPTY, v.leaf, v.ref)

    def code_fact(self, of, node):
        """``of(node)``, a fact read off the code of ``node`` alone, computed once per
        module analysis, or once per node for an incremental engine (kept with the node it
        is about, so an id reused by another node never reads it)."""
        kept = self.code_facts.get((of, id(node)))
        if kept is None or kept[0] is not node:
            kept = self.code_facts[(of, id(node))] = (node, of(node))
        return kept[1]

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def tick(self) -> None:
        self.steps += 1
        if self.frames and self.frames[-1].gid != self.gid:
            self.foreign_steps += 1
        if self.steps > MAX_STEPS:
            raise Budget()


# what the roots of one module analysis share (Interpreter.for_root), and the id counter
_SHARED_BY_ROOTS = frozenset({"module", "tops", "gid", "imports", "global_env", "method_gids",
                              "code_facts", "found_modules", "init_starts", "_ids"})


def _copied(value):
    """A copy of an interpreter field that can change independently of ``value``: its
    containers copied, what they hold that never changes (values, bindings, segments,
    nodes, events) shared."""
    kind = type(value)
    if kind is dict:
        return {k: _copied(v) for k, v in value.items()}
    if kind is list:
        return [_copied(v) for v in value]
    if kind is set:
        return set(value)
    if kind is Env:
        return value.copy()
    if kind is State:
        return value.copy()
    if kind is Accumulation:  # (its record grows as the loop accumulates more)
        return dataclasses.replace(value)
    if kind is Frame:
        return dataclasses.replace(value, arg_nodes=dict(value.arg_nodes),
                                   globals_=set(value.globals_), returns=list(value.returns),
                                   ret_conds=list(value.ret_conds),
                                   yields=None if value.yields is None else list(value.yields),
                                   loops=list(value.loops))
    return value
