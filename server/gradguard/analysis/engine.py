"""Parse, pick the roots worth interpreting, interpret them, and build findings.

Roots: the module body (calls into functions and classes of the file are interpreted
inline, with the caller's values), then every top-level function and every method alone
(parameters unknown). A cheap text test skips files, and functions, from which no
backward-like call is reachable.
"""

from __future__ import annotations

import ast
import re
import warnings

import libcst as cst

from gradguard.analysis import torchapi as T
from gradguard.analysis.interp import Interpreter
from gradguard.analysis.model import FileResult, Finding, Pos, SyntaxProblem
from gradguard.analysis.source import Source

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _too_deep(text: str) -> bool:
    """Whether the text nests deeper than Python itself accepts (CPython's parser refuses
    it cleanly; libcst's native parser would overflow the C stack and kill the process)."""
    try:
        with warnings.catch_warnings():  # invalid escapes etc.: not ours to report
            warnings.simplefilter("ignore")
            ast.parse(text)
    except SyntaxError as e:
        return "too many nested" in str(e)
    except (RecursionError, MemoryError):
        return True
    except ValueError:  # NUL bytes: libcst reports those itself
        return False
    return False


def parse(text: str) -> tuple[cst.Module | None, SyntaxProblem | None]:
    """Parse with libcst's native parser; a syntax error (or nesting too deep for the
    parser) becomes a :class:`SyntaxProblem` instead of an exception."""
    if _too_deep(text):
        return None, SyntaxProblem(Pos(1, 0), "too deeply nested to analyse")
    try:
        return cst.parse_module(text), None
    except cst.ParserSyntaxError as e:
        line, col, msg = _syntax_message(e)
        return None, SyntaxProblem(Pos(line, col), msg)
    except RecursionError:
        return None, SyntaxProblem(Pos(1, 0), "too deeply nested to analyse")
    except Exception as e:  # the native parser reports some errors as other types
        return None, SyntaxProblem(Pos(1, 0), str(e).splitlines()[0] if str(e) else type(e).__name__)


_AT = re.compile(r"^(?:parser error: )?error at (\d+):(\d+): ")


def _syntax_message(e: cst.ParserSyntaxError) -> tuple[int, int, str]:
    """Line (1-based), column (0-based) and message of a libcst parse error; the native
    parser puts its own, more precise "error at L:C" in the message."""
    msg = (e.message.strip().splitlines() or ["invalid syntax"])[0]
    at = _AT.match(msg)
    if at:
        return int(at.group(1)), max(int(at.group(2)) - 1, 0), msg[at.end():]
    return e.raw_line, e.raw_column, msg


def analyze_text(text: str) -> FileResult:
    """Analyse one source text; see :func:`gradguard.analysis.analyze`."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not any(tok in text for tok in T.TRIGGER_TOKENS):
        module, problem = parse(text)
        return FileResult(syntax_error=problem)
    module, problem = parse(text)
    if module is None:
        return FileResult(syntax_error=problem)
    errors: list[str] = []
    try:
        findings = _findings(text, module, errors)
    except RecursionError:
        return FileResult(syntax_error=SyntaxProblem(Pos(1, 0), "too deeply nested to analyse"))
    return FileResult(findings=tuple(sorted(findings, key=lambda f: (f.span, f.code))),
                      errors=tuple(errors))


def _triggered(module: cst.Module) -> tuple[set, dict]:
    """Names of the file's functions and methods from which a backward-like call can be
    reached, by text (a function whose code names a triggered function is triggered)."""
    codes = {}
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef):
            codes[stmt] = (stmt.name.value, module.code_for_node(stmt))
        elif isinstance(stmt, cst.ClassDef) and isinstance(stmt.body, cst.IndentedBlock):
            for m in stmt.body.body:
                if isinstance(m, cst.FunctionDef):
                    codes[m] = (m.name.value, module.code_for_node(m))
    hot = {n for n, (name, code) in codes.items() if any(t in code for t in T.TRIGGER_TOKENS)}
    words = {n: set(_WORD.findall(code)) for n, (_, code) in codes.items()}
    changed = True
    while changed:
        hot_names = {codes[n][0] for n in hot} | {"forward"}
        new = {n for n in codes if n not in hot and words[n] & hot_names}
        changed = bool(new)
        hot |= new
    return hot, codes


def _hints(interp: Interpreter) -> list:
    """Top-level statements the events point into (where they happened, where their
    graphs were built and freed, where tensors were changed in place), so positions are
    resolved there first."""
    out = list(interp.event_tops)
    for h in interp.hazards + interp.retained_carries:
        out += [interp.segs[s].top for s in h.segs] + [f.top for f in h.frees]
    for h in interp.inplace:
        out += [h.seg.top, interp.bump_tops.get(h.store)]
    seen, hints = set(), []
    for st in out:
        if st is not None and id(st) not in seen:
            seen.add(id(st))
            hints.append(st)
    return hints


def _isolated(errors: list, what: str, run) -> None:
    """Run one root (or one rule); a bug in it becomes one entry of ``errors``, and the
    other roots and rules still run."""
    try:
        run()
    except RecursionError:
        raise
    except Exception as e:  # an engine bug must not cost the user the other findings
        errors.append(f"{what}: {type(e).__name__}: {e}")


def _findings(text: str, module: cst.Module, errors: list) -> list[Finding]:
    from gradguard.rules import registry

    interp = Interpreter(module)
    _isolated(errors, "module", interp.run_module)
    # a function the module's code reached was interpreted with its callers' real values:
    # alone, with unknown parameters, it would only say less, or guess
    hot = {f for f in _triggered(module)[0] if id(f) not in interp.inlined}
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef) and stmt in hot:
            _isolated(errors, stmt.name.value, lambda: interp.run_function(stmt, None))
        elif isinstance(stmt, cst.ClassDef):
            info = interp.class_info(stmt)
            for m in info.methods.values():
                if m in hot:
                    _isolated(errors, f"{stmt.name.value}.{m.name.value}",
                              lambda: interp.run_function(m, info))
    if not (interp.hazards or interp.detaches or interp.inplace or interp.accumulations or
            interp.retained_carries):
        return []
    src = Source(text, module, _hints(interp))
    out: dict = {}
    for code, build in registry.finding_builders(interp, src):
        found = []
        _isolated(errors, code, lambda: found.extend(build()))
        for finding in found:
            out.setdefault((finding.code, finding.span), finding)
    return list(out.values())
