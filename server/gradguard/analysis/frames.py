"""What the interpreter keeps about the program itself: references to the file's
functions and classes, activation frames, loops being analysed, and small CST helpers."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from gradguard.analysis.values import Val

MAX_DEPTH = 8
# Calls of functions of imported modules nest at most this deep, and are followed for
# at most this many statements of theirs per root (a library's functions calling one
# another are not followed to the bottom); beyond that they are unknown calls. (The
# user programs of the cases run at most 250 such statements in a root; functions of
# libraries that import their own modules, thousands. A model of the user's nests its
# modules four or five deep: Backbone -> Stage -> Residual -> ConvAct.)
MAX_FOREIGN_DEPTH = 5
MAX_FOREIGN_STEPS = 1500
MAX_STEPS = 60_000
LOOP_PASSES = 2
MAX_LOOP_NESTING = 5


@dataclass
class FuncRef:
    """A function, method or lambda, with the frame it was defined in and the global
    frame of its module (``gid``: "G" for the analysed file, ``G:<path>`` for a module of
    the user's it imports)."""

    node: cst.FunctionDef | cst.Lambda
    frame: str
    cls: "ClassInfo | None" = None
    no_grad: bool = False
    static: bool = False
    gid: str = "G"
    bound: Any = None  # a bound method's receiver (``self.hook_fn`` as a value): its Val


@dataclass(frozen=True, eq=False)
class Partial:
    """``functools.partial(func, *pos, **kw)``: calling it calls ``func`` (a Val) with
    ``pos`` (``(Val, node)`` pairs) before the call's own arguments and ``kw`` under
    them."""

    func: Any
    pos: tuple
    kw: tuple  # (name, (Val, node)) pairs


@dataclass(frozen=True)
class TupleType:
    """A named tuple type (``collections.namedtuple("Memory", ["mem", "cmem"])``,
    ``typing.NamedTuple``): calling it makes a tuple whose elements are also its
    attributes ``fields``, in order."""

    fields: tuple


@dataclass
class ClassInfo:
    """A class: its methods and whether it is an nn.Module. ``key`` names it among the
    interpreter's classes (its name in the analysed file, ``<gid>.<name>`` in an imported
    module); ``bases`` are the keys of its bases that are known classes, else their
    names; ``gid`` is its module's global frame."""

    node: cst.ClassDef
    methods: dict
    bases: list
    is_module: bool
    is_optimizer: bool
    key: str = ""
    gid: str = "G"
    attrs: dict = field(default_factory=dict)  # class-level ``name = value``: value node
    fields: tuple | None = None  # a @dataclass's fields (annotated names), in order; None: not one
    container: str | None = None  # the torch.nn container it derives from ("Sequential")
    lightning: bool = False  # a subclass of Lightning's LightningModule


@dataclass(frozen=True)
class Trained:
    """What an optimizer trains: module names as written and module identities.
    ``pure``: its parameters are those modules' ``parameters()`` and nothing else (no
    tensor of its own, no parameter group the engine cannot read); ``stores``: the
    storages of the tensors it was given itself (``Adam([self.log_alpha])``); ``mods``:
    those modules and their submodules when the optimizer was built (it holds the
    parameters they had then: a head installed later is not among them); ``site``: the
    optimizer's constructor call; ``keys``: the env keys of the variables among ``names``
    (``rnn`` of ``SGD(rnn.parameters())``) as they were bound then; ``built``: an id
    drawn when it was built (ids grow as the analysis runs); ``left_frozen``: the modules
    among ``mods``' that a filter on ``requires_grad`` (``filtered``: that expression, a
    comprehension or ``filter(...)``) left out, frozen when it was built; ``by_name``:
    the parameters were picked by their names (``[p for n, p in m.named_parameters() if
    "extractor" not in n]``): which of the modules' parameters it steps is not known."""

    names: frozenset | None
    refs: frozenset
    pure: bool = False
    stores: frozenset = frozenset()
    mods: frozenset = frozenset()
    site: Any = None
    keys: tuple = ()
    built: int = 0
    left_frozen: frozenset = frozenset()
    filtered: Any = None
    by_name: bool = False


@dataclass(frozen=True)
class LoopCtx:
    """A loop being analysed: ``key`` identifies it; ``body`` is where a recomputation
    goes (first statement of the loop body, or of a closure's body); ``header`` holds the
    expressions evaluated once per loop entry (a ``for`` iterable); ``few``: a ``for``
    over a few known distinct keys or objects (``for task in ("ctr", "cvr")``, ``for m in
    (actor, critic)``), not over steps or data: what it keeps per pass is bounded."""

    key: int
    node: cst.CSTNode
    frame: str
    body: cst.CSTNode | None
    header: tuple = ()
    few: bool = False


@dataclass
class Frame:
    """One function activation: its env key prefix, function node, lexical parent,
    ``self``, the call that entered it and the arguments' expressions by parameter;
    ``gid`` is the global frame of the module its code is in."""

    id: str
    func: cst.CSTNode | None
    parent: str | None
    call: cst.CSTNode | None = None
    arg_nodes: dict = field(default_factory=dict)
    module_method: bool = False
    eval_mode: bool = False
    top: cst.CSTNode | None = None
    self_obj: Val | None = None
    globals_: set = field(default_factory=set)
    returns: list = field(default_factory=list)
    ret_conds: list = field(default_factory=list)  # the Cond of each returned test, or None
    yields: list | None = None
    stmt: cst.CSTNode | None = None
    loops: list = field(default_factory=list)
    gid: str = "G"
    closures: set = field(default_factory=set)  # names its nested functions read


def is_global(frame_id: str) -> bool:
    """Whether ``frame_id`` is a module's global frame (the analysed file's or an
    imported module's)."""
    return frame_id == "G" or frame_id.startswith("G:")


class Budget(Exception):
    pass


def dotted(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


_TOKEN_FIELDS = frozenset({
    "semicolon", "comma", "header", "footer", "newline", "indent", "trailing_whitespace",
    "colon", "equal", "dot", "asynchronous", "operator", "lbracket", "rbracket", "lbrace",
    "rbrace", "lpar", "rpar", "leading_lines", "lines_after_decorators", "arrow",
})
_CHILD_FIELDS: dict = {}


def children_of(node: cst.CSTNode) -> list:
    """``node.children`` without the tokens and whitespace (commas, parentheses,
    comments...), read off the node's fields: ``children`` runs a visitor for each node,
    8 times slower, and the analysis never looks at tokens."""
    names = _CHILD_FIELDS.get(type(node))
    if names is None:
        names = _CHILD_FIELDS[type(node)] = tuple(
            f.name for f in dataclasses.fields(node)
            if f.name not in _TOKEN_FIELDS and not f.name.startswith("whitespace"))
    out = []
    for name in names:
        v = getattr(node, name)
        if isinstance(v, cst.CSTNode):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            out.extend(e for e in v if isinstance(e, cst.CSTNode))
    return out


SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


def walk_scope(root):
    """The nodes under ``root`` (itself included), not inside a nested function, class
    or lambda."""
    todo = [root]
    while todo:
        n = todo.pop()
        yield n
        if n is root or not isinstance(n, SCOPES):
            todo.extend(children_of(n))


def calls_in(node: cst.CSTNode):
    """Every Call node inside ``node`` (including itself)."""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, cst.Call):
            yield n
        todo.extend(reversed(children_of(n)))


def literal_truth(node: cst.BaseExpression | None) -> bool | None:
    """The truth of a literal True/False, None for anything else."""
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return node.value == "True"
    return None


def arg_truth(arg) -> bool | None:
    """The bool an argument ``(value, node)`` is: a literal, or an expression whose value
    is known to be one (``requires_grad_(requires_grad_cnn)``, ``create_graph=not
    first_order``); None when not known."""
    val, node = arg
    lit = literal_truth(node)
    if lit is not None:
        return lit
    return val.ref if val.kind == "scalar" and isinstance(val.ref, bool) else None


def literal_int(node: cst.BaseExpression | None) -> int | None:
    """The value of an integer literal (``3``, ``-1``), None for anything else."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = literal_int(node.expression)
        return -inner if inner is not None else None
    if isinstance(node, cst.Integer):
        return int(node.value.replace("_", ""), 0)
    return None


def string_value(node: cst.SimpleString):
    """The value of a string literal (``node.evaluated_value``, which runs
    ``ast.literal_eval`` each time: kept per literal text)."""
    return _string_value(node.value)


@functools.lru_cache(maxsize=4096)
def _string_value(text: str):
    return cst.SimpleString(text).evaluated_value


def tuple_fields(args) -> tuple | None:
    """The field names of ``namedtuple("T", ["a", "b"])`` / ``("T", "a b")`` / ``("T",
    "a, b")`` / ``NamedTuple("T", [("a", int), ...])`` (``args``: the call's arguments),
    None when they are not written out."""
    spec = next((a.value for a in args if a.keyword is not None and
                 a.keyword.value in ("field_names", "fields")), None)
    if spec is None:
        spec = args[1].value if len(args) > 1 and args[1].keyword is None else None
    if isinstance(spec, cst.SimpleString):
        text = string_value(spec)
        return tuple(text.replace(",", " ").split()) if isinstance(text, str) else None
    if not isinstance(spec, (cst.List, cst.Tuple)):
        return None
    out = []
    for e in spec.elements:
        v = e.value
        if isinstance(v, (cst.Tuple, cst.List)) and v.elements:
            v = v.elements[0].value
        name = string_value(v) if isinstance(v, cst.SimpleString) else None
        if not isinstance(name, str):
            return None
        out.append(name)
    return tuple(out)


def self_assigned(func) -> frozenset:
    """The attributes a method assigns on its first parameter (``self.x = ...``,
    ``self.x += ...``, ``self.x: T = ...``), anywhere in its body."""
    params = list(func.params.posonly_params) + list(func.params.params)
    if not params or isinstance(func, cst.Lambda):
        return frozenset()
    me = params[0].name.value
    out = set()

    def targets(node):
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and \
                node.value.value == me:
            out.add(node.attr.value)
        elif isinstance(node, (cst.Tuple, cst.List)):
            for e in node.elements:
                targets(e.value)

    class Visitor(cst.CSTVisitor):
        def visit_Assign(self, node):
            for t in node.targets:
                targets(t.target)

        def visit_AugAssign(self, node):
            targets(node.target)

        def visit_AnnAssign(self, node):
            targets(node.target)

    func.body.visit(Visitor())
    return frozenset(out)
