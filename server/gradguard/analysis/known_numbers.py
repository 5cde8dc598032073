"""Python numbers the engine knows the value of: ints (literals, config values, their
arithmetic), floats, a loop counter past its start in a loop's later passes, comparisons
of those, and numeric builtins and math functions of known arguments."""

from __future__ import annotations

import math
import operator

import libcst as cst

from gradguard.analysis.values import Val


def known_int(n: int) -> Val:
    """A Python int of known value (a literal, a config default, arithmetic of those)."""
    return Val("scalar", ref=("int", n))


SOME_INT = Val("scalar", ref="int")
"""A Python int of unknown value (an element of ``range(n)``)."""

NUMBERS = Val("scalar", ref="numbers")
"""Python numbers of unknown value, or (nested) lists of them: what ``t.tolist()`` gives.
Never a tensor: an element of it used as an index is a Python int (basic indexing)."""

COUNT = Val("scalar", ref="count")
"""The index ``enumerate(xs)`` gives: 0, 1, 2, ... (past 0 in a loop's later passes)."""


def counter_start(it: Val) -> tuple | None:
    """``(start, step)`` of the ints a ``range`` gives, when both are known and the step
    is positive, else None."""
    ref = it.ref if it.kind == "container" else None
    if not isinstance(ref, tuple) or ref[0] != "range":
        return None
    if ref[2] is not None:
        bounds = ref[2]
        start, step = (0, 1) if len(bounds) == 1 else (bounds[0], 1) if len(bounds) == 2 \
            else (bounds[0], bounds[2])
    elif len(ref) > 3:
        start, step = ref[3]
    else:
        return None
    return (start, step) if start is not None and step is not None and step > 0 else None


def pass_counter(start: int, step: int, k: int) -> Val:
    """The loop counter in pass ``k``: at least ``start + step`` in the later passes (the
    engine's second pass stands for every later iteration). In the first it is any of
    them: that pass also stands for the iterations before one that a later one reads
    (``if it >= warmup: memory.enqueue(emb)``, kept for the next iteration)."""
    return SOME_INT if k == 0 else Val("scalar", ref=("int>=", start + step))


def is_int(v: Val) -> bool:
    """Whether ``v`` is a Python int: of known value, an element of ``range()``, an
    ``enumerate`` index, a loop counter past its start."""
    return v.kind == "scalar" and (int_of(v) is not None or v.ref in (SOME_INT.ref, COUNT.ref) or
                                   isinstance(v.ref, tuple) and v.ref[0] == "int>=")


def bounded_compare(op, a: Val, b: Val) -> bool | None:
    """A comparison of an int known to be at least some bound with a known int
    (``epoch > 0`` in every pass after the first), when it is decided."""
    lo_a = a.ref[1] if a.kind == "scalar" and isinstance(a.ref, tuple) and \
        a.ref[0] == "int>=" else None
    lo_b = b.ref[1] if b.kind == "scalar" and isinstance(b.ref, tuple) and \
        b.ref[0] == "int>=" else None
    x, y = int_of(a), int_of(b)
    if lo_a is not None and y is not None:
        if op in (operator.gt, operator.ne):
            return True if lo_a > y else None
        if op is operator.ge:
            return True if lo_a >= y else None
        if op is operator.eq:
            return False if lo_a > y else None
        if op is operator.lt:
            return False if lo_a >= y else None
        if op is operator.le:
            return False if lo_a > y else None
    if lo_b is not None and x is not None:
        flipped = {operator.gt: operator.lt, operator.lt: operator.gt,
                   operator.ge: operator.le, operator.le: operator.ge}.get(op, op)
        return bounded_compare(flipped, b, a)
    return None


def int_of(v: Val) -> int | None:
    """The value of a known int, else None."""
    return v.ref[1] if v.kind == "scalar" and isinstance(v.ref, tuple) and \
        v.ref[0] == "int" else None


MAX_KNOWN_INT = 1 << 20
"""Arithmetic beyond this is not followed (a known int stays a loop bound or a config)."""


def number_of(v: Val):
    """The value of a Python int or float known to the engine, else None."""
    if v.kind == "scalar" and isinstance(v.ref, tuple) and v.ref[0] in ("int", "float"):
        return v.ref[1]
    return None


def known_number(x) -> Val | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or \
            not -MAX_KNOWN_INT <= x <= MAX_KNOWN_INT:
        return None
    return known_int(x) if isinstance(x, int) else Val("scalar", ref=("float", x))


# functions of known numbers whose value the engine computes (``int(np.log2(size //
# 4))`` down-sampling steps, ``max(16, min(c, 512))`` channels): builtins, and math /
# numpy functions (numpy's give floats, as np.float64 does)
_NUMERIC = {
    "int": int, "float": float, "abs": abs, "round": round, "min": min, "max": max,
    "math.log2": math.log2, "math.log": math.log, "math.log10": math.log10,
    "math.sqrt": math.sqrt, "math.ceil": math.ceil, "math.floor": math.floor,
    "math.exp": math.exp, "numpy.log2": math.log2, "numpy.log": math.log,
    "numpy.log10": math.log10, "numpy.sqrt": math.sqrt, "numpy.exp": math.exp,
    "numpy.ceil": lambda x: float(math.ceil(x)), "numpy.floor": lambda x: float(math.floor(x)),
}


def numeric_call(name: str, vals) -> Val | None:
    """``name(*vals)`` (a builtin's name or a dotted path) when it is one of the numeric
    functions above and every argument is a number of known value: the number; else
    None."""
    fn = _NUMERIC.get(name)
    args = [number_of(v) for v in vals]
    if fn is None or not args or None in args or (name in ("min", "max") and len(args) < 2):
        return None
    try:
        return known_number(fn(*args))
    except (ValueError, OverflowError, TypeError):
        return None


def range_length(v: Val) -> int | None:
    """How many elements a ``range(...)`` of known bounds has, else None."""
    return v.ref[1] if v.kind == "container" and isinstance(v.ref, tuple) and \
        v.ref[0] == "range" else None


def int_op(op: str, a: int, b: int) -> int | None:
    """``a op b`` for the integer operators, None for others or results out of range."""
    if op == "Add":
        r = a + b
    elif op == "Subtract":
        r = a - b
    elif op == "Multiply":
        r = a * b
    elif op == "FloorDivide" and b:
        r = a // b
    elif op == "Modulo" and b:
        r = a % b
    elif op == "Power" and 0 <= b <= 32 and abs(a) <= 1 << 10:
        r = a ** b
    else:
        return None
    return r if abs(r) <= MAX_KNOWN_INT else None


# each comparison operator's function; its name is the aten op's (eq, lt, ...)
COMPARISONS = {
    cst.Equal: operator.eq, cst.NotEqual: operator.ne, cst.LessThan: operator.lt,
    cst.LessThanEqual: operator.le, cst.GreaterThan: operator.gt,
    cst.GreaterThanEqual: operator.ge,
}
