"""Parse, pick the roots worth interpreting, interpret them, and build findings.

Roots: the module body (calls into functions and classes of the file are interpreted
inline, with the caller's values), then every top-level function and every method alone
(parameters unknown), except those the module body reached. A cheap text test skips
files, and functions, from which no backward-like call is reachable.

Each root runs in its own interpreter (function roots start from the names the module
body left) and gets its own findings; the file's findings are their union, the first of
equal ``(code, span)`` kept, roots in file order. That independence is what lets the
language server's :class:`Engine` (``incremental=True``, one per document) reuse a
function root's findings after an edit: they are kept with what the root read (its own
text, the texts of the functions and methods it inlined, and its start: the bindings of
the module-level names that code names, and what every root shares, see
:meth:`Engine._start`) and reused while all of it is unchanged, moved to the lines the
edit shifted them to.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass

import libcst as cst

from gradguard.analysis import torchapi as T
from gradguard.analysis.blocks import BlockParser, common_prefix, common_suffix, module_footer
from gradguard.analysis.frames import ClassInfo, FuncRef, dotted, is_global
from gradguard.analysis.imports import digest
from gradguard.analysis.interp import Interpreter
from gradguard.analysis.model import (MODULE_SPAN, EngineError, FileResult, Finding, Pos, Span,
                                      SyntaxProblem, finding_lines, moved_error, moved_finding)
from gradguard.analysis.module_semantics import ref_kind
from gradguard.analysis.source import Source
from gradguard.analysis.values import Lazy, LazyJoin, Val

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _python_parse(text: str) -> tuple[ast.Module | None, SyntaxProblem | None]:
    """CPython's parse of the text: ``(tree, None)``, else ``(None, the syntax error
    CPython reports)`` (its own message, line and column: ``expected ':'`` where the error
    is). Nesting too deep for Python's parser is reported as such (libcst's native parser
    would overflow the C stack and kill the process). Text with NUL bytes is ``(None,
    None)``: libcst reports those itself."""
    try:
        with warnings.catch_warnings():  # invalid escapes etc.: not ours to report
            warnings.simplefilter("ignore")
            return ast.parse(text), None
    except SyntaxError as e:
        if "too many nested" in str(e):
            return None, SyntaxProblem(Pos(1, 0), "too deeply nested to analyse")
        line = e.lineno or 1
        return None, SyntaxProblem(Pos(line, max((e.offset or 1) - 1, 0)),
                                   e.msg or "invalid syntax")
    except (RecursionError, MemoryError):
        return None, SyntaxProblem(Pos(1, 0), "too deeply nested to analyse")
    except ValueError:  # NUL bytes: libcst reports those itself
        return None, None


def parse(text: str, python: tuple | None = None) -> tuple[cst.Module | None, SyntaxProblem | None]:
    """Parse with libcst's native parser; a syntax error (CPython's message and place
    when CPython rejects the text too, else libcst's: syntax newer than the running
    Python's is parsed), or nesting too deep for the parser, becomes a
    :class:`SyntaxProblem` instead of an exception. ``python``: what
    :func:`_python_parse` said of the text, when the caller has it."""
    _, python = python if python is not None else _python_parse(text)
    if python is not None and python.message == "too deeply nested to analyse":
        return None, python
    try:
        return cst.parse_module(text), None
    except cst.ParserSyntaxError as e:
        if python is not None:  # (newer syntax than this Python's parses with libcst)
            return None, python
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


def _triggered(defs: dict, imported: frozenset = frozenset()) -> set:
    """The functions and methods (of ``defs``: node -> :class:`_Def`) from which a
    backward-like call can be reached, by text (a function whose code names a triggered
    function, or a name imported from a module of the user's that has a backward-like
    call, ``imported``, is triggered)."""
    hot = {n for n, d in defs.items() if d.trigger}
    changed = True
    while changed:
        hot_names = {defs[n].name for n in hot} | {"forward"} | imported
        new = {n for n, d in defs.items() if n not in hot and d.words & hot_names}
        changed = bool(new)
        hot |= new
    return hot


def _imported_triggers(module: cst.Module, imports, text: str) -> frozenset:
    """The names this module binds by importing them from a module of the user's whose
    text has a backward-like call (``imports.may_reach``: by the files' text, without
    resolving anything), at module level (also inside ``if`` / ``try``), and calls (by
    the text: a call of the name, or of an attribute of it: a training loop that calls an
    imported step, a script that runs an imported trainer's ``train()``)."""
    out = set()
    todo = list(module.body)
    while todo:
        st = todo.pop()
        todo.extend(_nested_statements(st))
        for small in st.body if isinstance(st, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                mod = dotted(small.module) if small.module is not None else ""
                for alias in small.names:
                    name = dotted(alias.name)
                    if imports.may_reach(mod, len(small.relative), name, T.TRIGGER_TOKENS):
                        out.add(alias.asname.name.value if alias.asname else name)
            elif isinstance(small, cst.ImportFrom):  # import *: a name we cannot see
                mod = dotted(small.module) if small.module is not None else ""
                if imports.may_reach(mod, len(small.relative), None, T.TRIGGER_TOKENS):
                    out.add("*")
            elif isinstance(small, cst.Import):
                for alias in small.names:
                    path = dotted(alias.name)
                    if imports.may_reach(path, 0, None, T.TRIGGER_TOKENS):
                        out.add(alias.asname.name.value if alias.asname else path.split(".")[0])
    return frozenset(n for n in out if n == "*" or re.search(rf"\b{re.escape(n)}\s*[.(]", text))


def _worth_parsing(text: str, tree: ast.Module, imports) -> bool:
    """Whether a text CPython parsed may have anything to analyse: a backward-like
    token, or an import (anywhere) that may name code of the user's with one (a
    superset of what :func:`_imported_triggers` finds, by ``imports.may_reach``)."""
    if any(tok in text for tok in T.TRIGGER_TOKENS):
        return True
    if imports is None:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if any(imports.may_reach(node.module or "", node.level,
                                     None if a.name == "*" else a.name, T.TRIGGER_TOKENS)
                   for a in node.names):
                return True
        elif isinstance(node, ast.Import):
            if any(imports.may_reach(a.name, 0, None, T.TRIGGER_TOKENS) for a in node.names):
                return True
    return False


def _nested_statements(st):
    """The statements in the blocks of an ``if`` / ``try`` (code that runs at import)."""
    blocks = []
    if isinstance(st, cst.If):
        blocks = [st.body, st.orelse.body if isinstance(st.orelse, cst.Else) else None]
        if isinstance(st.orelse, cst.If):
            yield st.orelse
    elif isinstance(st, cst.Try) or type(st).__name__ == "TryStar":
        blocks = [st.body, *(h.body for h in st.handlers),
                  st.orelse.body if st.orelse is not None else None,
                  st.finalbody.body if st.finalbody is not None else None]
    for block in blocks:
        if isinstance(block, cst.IndentedBlock):
            yield from block.body


def _hints(interp: Interpreter) -> list:
    """Top-level statements the events point into (where they happened, where their
    graphs were built and freed, where tensors were changed in place), so positions are
    resolved there first."""
    out = list(interp.event_tops)
    for h in interp.hazards + interp.retained_carries:
        out += [interp.segs[s].top for s in h.segs] + [f.top for f in h.frees]
    for h in interp.inplace:
        out += [h.seg.top, h.bump_top]
    seen, hints = set(), []
    for st in out:
        if st is not None and id(st) not in seen:
            seen.add(id(st))
            hints.append(st)
    return hints


def _isolated(errors: list, kind: str, where: str, run) -> None:
    """Run one root (``kind`` "root") or one rule ("rule"); a bug in it becomes one
    ``(kind, where, "ExcType: text")`` entry of ``errors`` (made an :class:`EngineError`
    once positions are known, see :meth:`Engine._errors`), and the other roots and rules
    still run."""
    try:
        run()
    except RecursionError:
        raise
    except Exception as e:  # an engine bug must not cost the user the other findings
        errors.append((kind, where, _error_text(e)))


_ERROR_TEXT_LIMIT = 300


def _error_text(e: Exception) -> str:
    """``"ExcType: text"`` on one line, control characters escaped, at most
    :data:`_ERROR_TEXT_LIMIT` characters (it is printed, and may quote the user's code)."""
    text = " ".join(f"{type(e).__name__}: {e}".split())
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= _ERROR_TEXT_LIMIT else text[:_ERROR_TEXT_LIMIT - 3] + "..."


@dataclass(frozen=True)
class _Def:
    """A top-level function or a method: its qualified name, code, words and whether
    its code holds a backward-like token."""

    qualname: str
    name: str
    code: str
    words: frozenset
    trigger: bool

    @staticmethod
    def of(qualname: str, node: cst.FunctionDef, code: str) -> "_Def":
        words = set(_WORD.findall(code))
        if _SELF_CALL.search(code):
            words.add("forward")  # ``self(x)`` calls the module's forward (nn.Module.__call__)
        return _Def(qualname, node.name.value, code, frozenset(words),
                    any(t in code for t in T.TRIGGER_TOKENS))


_SELF_CALL = re.compile(r"\bself\s*\(")
_STUB = cst.SimpleStatementSuite(body=[cst.Pass()])
_NESTED_CODE = re.compile(r"\b(?:def|class|lambda)\b")


class _Statement:
    """What the engine derives from one top-level statement (kept per statement node,
    so across edits elsewhere): its functions and methods, and (on demand) its header:
    a def's signature, a class without its methods' bodies, any other statement whole."""

    def __init__(self, module: cst.Module, stmt: cst.CSTNode, known: dict, texts: dict):
        """``known`` maps method nodes to their :class:`_Def` when an earlier text had
        them (a class an edit touched keeps its other methods' nodes); ``texts`` maps
        function nodes to a text standing for their code (see :func:`_def_texts`), the
        others' code is printed."""
        self.stmt = stmt
        self.defs: dict = {}
        self._header: str | None = None
        self._header_words: frozenset | None = None

        def code(node):
            found = texts.get(node)
            return found if found is not None else module.code_for_node(node)
        if isinstance(stmt, cst.FunctionDef):
            self.defs[stmt] = _Def.of(stmt.name.value, stmt, code(stmt))
        elif isinstance(stmt, cst.ClassDef) and isinstance(stmt.body, cst.IndentedBlock):
            for m in stmt.body.body:
                if isinstance(m, cst.FunctionDef):
                    qualname = f"{stmt.name.value}.{m.name.value}"
                    d = known.get(m)
                    self.defs[m] = d if d is not None and d.qualname == qualname else \
                        _Def.of(qualname, m, code(m))

    def header(self, module: cst.Module) -> str:
        """The statement's code without comments and blank lines before it, and without
        the bodies of its functions and methods."""
        if self._header is None:
            stmt = self.stmt
            if isinstance(stmt, cst.FunctionDef):
                stmt = stmt.with_changes(body=_STUB)
            elif self.defs:
                stmt = stmt.with_changes(body=stmt.body.with_changes(
                    body=[m.with_changes(body=_STUB, leading_lines=()) if m in self.defs
                          else m for m in stmt.body.body]))
            self._header = module.code_for_node(stmt.with_changes(leading_lines=()))
        return self._header

    def header_words(self, module: cst.Module) -> frozenset:
        """The names :meth:`header` holds."""
        if self._header_words is None:
            self._header_words = frozenset(_WORD.findall(self.header(module)))
        return self._header_words

    def nested_words(self, module: cst.Module) -> frozenset:
        """The names of a statement that defines code other than top-level functions and
        methods (a def or class in an ``if``, a lambda, a class's nested class): code a
        root may run without it being in :func:`_keyed_defs`."""
        if isinstance(self.stmt, cst.FunctionDef) or \
                not _NESTED_CODE.search(self.header(module)):
            return frozenset()
        return self.header_words(module)


@dataclass(frozen=True)
class _Root:
    """A function root: ``key`` names it (its qualified name, ``#2``... for a later
    def of the same name), ``cls`` is the class statement of a method."""

    key: str
    qualname: str
    func: cst.FunctionDef
    cls: cst.ClassDef | None


@dataclass(frozen=True)
class _RootResult:
    """A function root's findings and errors, with what they were computed from: its
    start (:meth:`Engine._start`), and ``(key, code)`` of itself and each function and
    method it inlined; ``lines`` is the first and last line its findings and errors
    touch ((0, 0) for none); ``covers``, the keys of the other functions its run went
    through to their end (not run alone after it)."""

    start: tuple
    reads: tuple
    findings: tuple
    errors: tuple
    lines: tuple
    covers: frozenset

    @staticmethod
    def of(start: tuple, reads, findings, errors, covers: frozenset) -> "_RootResult":
        spans = [finding_lines(f) for f in findings] + \
            [(e.span.start.line, e.span.end.line) for e in errors]
        lines = (min(lo for lo, _ in spans), max(hi for _, hi in spans)) if spans else (0, 0)
        return _RootResult(start, tuple(reads), tuple(findings), tuple(errors), lines,
                           covers)


def _def_texts(text: str, tree: ast.Module, module: cst.Module) -> dict:
    """The top-level functions and methods of ``module`` (libcst's parse of ``text``)
    mapped to the lines of ``text`` around each (CPython's parse, ``tree``, places them):
    from the line after the statement before it to the line before the statement after
    it, so its leading and trailing comments included, as libcst's printed code holds
    them. A whole-file analysis needs a function's code only for its words and whether it
    holds a backward-like token, and printing it costs more than parsing it; the slices
    hold every word the printed code holds (at most a comment line more). Empty when the
    two parses do not line up (then the code is printed)."""
    starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]

    def lines(first: int, last: int) -> str:  # 1-based, inclusive
        return text[starts[first - 1]:starts[last] if last < len(starts) else len(text)]

    def first_line(node) -> int:
        return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", ())])

    out: dict = {}

    def pair(cst_body, ast_body, lo: int, hi: int) -> bool:
        ours = [n for n in cst_body if isinstance(n, (cst.FunctionDef, cst.ClassDef))]
        theirs = [(i, n) for i, n in enumerate(ast_body)
                  if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        if len(ours) != len(theirs):
            return False
        for node, (i, a) in zip(ours, theirs):
            if isinstance(node, cst.FunctionDef) != (not isinstance(a, ast.ClassDef)):
                return False
            first = ast_body[i - 1].end_lineno + 1 if i else lo
            last = first_line(ast_body[i + 1]) - 1 if i + 1 < len(ast_body) else hi
            if isinstance(node, cst.FunctionDef):
                out[node] = lines(first, max(last, a.end_lineno))
            elif isinstance(node.body, cst.IndentedBlock) and \
                    not pair(node.body.body, a.body, a.lineno + 1, max(last, a.end_lineno)):
                return False
        return True

    return out if pair(module.body, tree.body, 1, len(starts)) else {}


def _keyed_defs(module: cst.Module, statements: dict) -> dict:
    """Every top-level function and method: node -> (unique key, :class:`_Def`)."""
    out, seen = {}, {}
    for st in module.body:
        for node, d in statements[st].defs.items():
            n = seen[d.qualname] = seen.get(d.qualname, 0) + 1
            out[node] = (d.qualname if n == 1 else f"{d.qualname}#{n}", d)
    return out


def _root_runs(module: cst.Module, statements: dict, defs: dict, inlined: set,
               imported: frozenset = frozenset()) -> list:
    """The function roots in file order: every triggered function and method the module
    body did not reach (``imported``: see :func:`_triggered`)."""
    hot = {f for f in _triggered({n: d for n, (_, d) in defs.items()}, imported)
           if id(f) not in inlined}
    return [_Root(defs[node][0], defs[node][1].qualname, node, stmt if node is not stmt else None)
            for stmt in module.body for node in statements[stmt].defs if node in hot]


def _callers_first(roots: list, defs: dict) -> list:
    """``roots`` ordered so that a root comes after the roots whose code names it (its
    callers, by the text; in file order otherwise, and where they call one another): a
    root a caller's run went through to its end need not run alone."""
    callers = {r.key: [c for c in roots if c is not r and defs[r.func][1].name in
                       defs[c.func][1].words] for r in roots}
    out, seen = [], set()
    for first in roots:
        todo = [(first, False)]
        while todo:
            root, done = todo.pop()
            if done:
                out.append(root)
                continue
            if root.key in seen:
                continue
            seen.add(root.key)
            todo.append((root, True))
            todo.extend((c, False) for c in reversed(callers[root.key]) if c.key not in seen)
    return out


@dataclass(frozen=True)
class _Change:
    """The change from one text to the next as one changed range of lines (found as the
    texts' common prefix and suffix): lines before ``first`` stay, lines after ``last``
    move by ``delta``, lines in between (the partly changed first and last included) map
    to None. Call it as a :data:`~gradguard.analysis.model.LineMap`."""

    first: int
    last: int
    delta: int

    @staticmethod
    def between(old: str, new: str) -> "_Change":
        prefix = common_prefix(old, new)
        suffix = common_suffix(old, new, min(len(old), len(new)) - prefix)
        count = _LINE_BREAK.findall
        first = len(count(old, 0, prefix)) + 1
        last = first + len(count(old, prefix, len(old) - suffix))
        return _Change(first, last, len(count(new, prefix, len(new) - suffix)) - (last - first))

    def __call__(self, line: int) -> int | None:
        if line < self.first:
            return line
        if line > self.last:
            return line + self.delta
        return None


class _KeptFacts(dict):
    """The code facts of one text's analysis (:meth:`Interpreter.code_fact`), reading those
    the previous text's analysis computed for a node both texts have (a statement the
    incremental parser did not parse again)."""

    def __init__(self, earlier: dict):
        super().__init__()
        self.earlier = earlier

    def get(self, key, default=None):
        kept = dict.get(self, key)
        if kept is None:
            kept = self.earlier.get(key)
            if kept is not None:
                self[key] = kept
        return kept if kept is not None else default


class Engine:
    """Analyses texts of one file; with ``incremental``, successive texts of one
    document, reusing the work of the previous ones (see the module docstring).

    :meth:`analyze` never raises for bad input. ``last_run`` counts, for the last text,
    the function roots interpreted (``run``) and reused (``reused``), the characters
    libcst parsed (``parsed``), and the top-level statements rules derived facts from
    again (``indexed``: not kept from an earlier text, :meth:`Source.per_statement`)."""

    def __init__(self, incremental: bool = False):
        self.incremental = incremental
        self.last_run: dict = {}
        self._reset()

    def _reset(self) -> None:
        """Forget every earlier text."""
        self._parser = BlockParser(parse) if self.incremental else None
        self._text: str | None = None
        self._statements: dict = {}
        self._spans: dict = {}
        self._kept: dict = {}  # (kind, top-level statement) -> what rules derived from it
        self._roots: dict[str, _RootResult] = {}
        self._known: dict = {}
        self._facts: dict = {}  # the last text's code facts (Interpreter.code_fact)

    def analyze(self, text: str, imports=None) -> FileResult:
        """The findings of ``text``; see :func:`gradguard.analysis.analyze`."""
        if not self.incremental:
            return self._analyze(text, imports)
        try:
            return self._analyze(text, imports)
        except RecursionError:  # libcst printing a statement nested too deeply for Python
            self._reset()
            return Engine().analyze(text, imports)

    def _analyze(self, text: str, imports) -> FileResult:
        if text.startswith("\ufeff"):
            text = text[1:]
        tree = None
        if self.incremental:
            parsed, problem = self._parser.parse(text)
            module = parsed.module if parsed is not None else None
        else:
            parsed = None
            python = _python_parse(text)
            tree = python[0]
            if python[0] is not None and not _worth_parsing(text, python[0], imports):
                return FileResult()  # (libcst's parse costs 10x CPython's: spared)
            module, problem = parse(text, python)
        if module is None:
            return FileResult(syntax_error=problem)
        self.last_run = {"run": 0, "reused": 0,
                         "parsed": parsed.reparsed if parsed is not None else len(text),
                         "indexed": 0}
        if parsed is not None and not parsed.exact:
            self._roots = {}  # positions are libcst's, not the text's: nothing to move
        self._keep(text, module)
        imported = _imported_triggers(module, imports, text) if imports is not None \
            else frozenset()
        if not imported and not any(tok in text for tok in T.TRIGGER_TOKENS):
            return FileResult()
        errors: list[EngineError] = []
        deps: set = set()
        try:
            texts = _def_texts(text, tree, module) if tree is not None else {}
            findings = self._findings(text, module, parsed, errors, imports, deps, imported,
                                      texts)
        except RecursionError:
            self._roots = {}
            return FileResult(syntax_error=SyntaxProblem(Pos(1, 0), "too deeply nested to analyse"))
        return FileResult(findings=tuple(sorted(findings, key=lambda f: (f.span, f.code))),
                          errors=tuple(errors), deps=tuple(sorted(deps)))

    def _keep(self, text: str, module: cst.Module) -> None:
        """Move what is kept across texts to ``text``: per-statement facts and positions
        of the statements still there; function root results, to their new lines (a
        result with anything on a changed line is dropped)."""
        if not self.incremental:
            return
        body = set(module.body)
        known = {n: d for st, v in self._statements.items() for n, d in v.defs.items()}
        self._statements = {st: v for st, v in self._statements.items() if st in body}
        self._known = {n: d for n, d in known.items() if n not in body}
        live = body | {m for st in body if isinstance(st, cst.ClassDef) and
                       isinstance(st.body, cst.IndentedBlock) for m in st.body.body}
        self._spans = {n: v for n, v in self._spans.items() if n in live}
        self._kept = {k: v for k, v in self._kept.items() if k[1] in body}
        if self._text is not None and self._text != text and self._roots:
            change = _Change.between(self._text, text)
            kept = {}
            for key, res in self._roots.items():
                lo, hi = res.lines
                if hi < change.first or (lo > change.last and not change.delta):
                    kept[key] = res  # nothing of it moves
                    continue
                moved = [moved_finding(f, change) for f in res.findings]
                moved_errors = [moved_error(e, change) for e in res.errors]
                if all(f is not None for f in moved + moved_errors):
                    kept[key] = _RootResult.of(res.start, res.reads, moved, moved_errors,
                                               res.covers)
            self._roots = kept
        self._text = text

    def _reusable(self, root: _Root, start, codes: dict, imports) -> _RootResult | None:
        """The kept result of ``root`` while its code, the start it read (``start``:
        reads -> start) and the code of every function it inlined are unchanged."""
        cached = self._roots.get(root.key)
        if cached is None or cached.reads[0] != (root.key, codes[root.key]) or \
                cached.start != start(cached.reads):
            return None

        def now(key):
            """The code of a function read; the hash of a module read (``("dep", path)``:
            imported modules this root read and the module body did not)."""
            if isinstance(key, tuple) and key[0] == "dep":
                text = imports.text(key[1]) if imports is not None else None
                return digest(text) if text is not None else None
            return codes.get(key)

        return cached if all(now(k) == c for k, c in cached.reads) else None

    def _findings(self, text: str, module: cst.Module, parsed, errors: list,
                  imports, deps: set, imported: frozenset, texts: dict) -> list[Finding]:
        from gradguard.rules import registry

        statements = self._statements if self.incremental else {}
        for st in module.body:
            if st not in statements:
                statements[st] = _Statement(module, st, self._known, texts)
        facts = _KeptFacts(self._facts) if self.incremental else None
        main = Interpreter(module, imports=imports, code_facts=facts)
        module_errors: list = []
        _isolated(module_errors, "root", "module", main.run_module)
        defs = _keyed_defs(module, statements)
        # a function the module's code reached was interpreted with its callers' real
        # values: alone, with unknown parameters, it would only say less, or guess
        roots = _root_runs(module, statements, defs, main.inlined, imported)
        codes = {key: d.code for key, d in defs.values()}
        if self.incremental:
            start = self._start(main, module, statements, defs, registry.text_facts(text))
        results: dict = {}
        runs = [(None, main, module_errors)]
        # a function another root's run went through to its end was interpreted with that
        # caller's values, as one the module body reached: it is not run alone
        covered, skipped, covers = set(), set(), {}
        keys = {id(n): key for n, (key, _) in defs.items()}
        for root in _callers_first(roots, defs):
            if root.key in covered:
                results[root.key] = ((), ())
                skipped.add(root.key)
                continue
            cached = self._reusable(root, lambda reads: start(root, reads), codes, imports) \
                if self.incremental else None
            if cached is not None:
                covered |= cached.covers
                results[root.key] = (cached.findings, cached.errors)
                deps.update((key[1], sha) for key, sha in cached.reads
                            if isinstance(key, tuple) and key[0] == "dep")
                self.last_run["reused"] += 1
                continue
            interp = main.for_root()
            root_errors: list = []
            # (reading the root's class is part of the root: a bug there costs this root)
            _isolated(root_errors, "root", root.qualname, lambda: interp.run_function(
                root.func, interp.class_info(root.cls) if root.cls is not None else None))
            covers[root.key] = frozenset(
                keys[n] for n in interp.completed if n in keys) - {root.key}
            covered |= covers[root.key]
            runs.append((root, interp, root_errors))
            self.last_run["run"] += 1
        src = None
        for root, interp, root_errors in runs:
            deps |= interp.deps
            found: list = []
            if registry.has_events(interp):
                if src is None:
                    src = self._source(text, module, parsed, runs)
                for code, build in registry.finding_builders(interp, src):
                    _isolated(root_errors, "rule", code, lambda: found.extend(build()))
            if root_errors and root is not None and src is None:
                src = self._source(text, module, parsed, runs)
            root_errors = self._errors(src, root, root_errors)
            key = root.key if root is not None else None
            results[key] = (tuple(found), tuple(root_errors))
            if root is not None and self.incremental:
                reads = [(root.key, codes[root.key])] + sorted(
                    {(k, d.code) for n, (k, d) in defs.items()
                     if id(n) in interp.inlined and n is not root.func}) + sorted(
                    (("dep", path), sha) for path, sha in _touched_deps(main, interp))
                self._roots[root.key] = _RootResult.of(start(root, reads), reads, found,
                                                       root_errors, covers[root.key])
        self.last_run["indexed"] = src.derived if src is not None else 0
        if self.incremental:
            self._facts = dict(facts)  # (the facts this text read: its nodes' only)
        if self.incremental:
            live = {root.key for root in roots if root.key not in skipped}
            self._roots = {k: r for k, r in self._roots.items() if k in live}
        out: dict = {}
        for key in [None] + [root.key for root in roots]:
            found, root_errors = results[key]
            errors.extend(root_errors)
            for finding in found:
                out.setdefault((finding.code, finding.span), finding)
        return list(out.values())

    @staticmethod
    def _errors(src: Source | None, root: _Root | None, raw: list) -> list[EngineError]:
        """The ``(kind, where, message)`` entries :func:`_isolated` recorded for ``root``
        (None: the module body) as :class:`EngineError` s, at the root's header."""
        if not raw:
            return []
        span = MODULE_SPAN
        if root is not None:
            try:
                span = Span(src.span(root.func).start, src.span(root.func.name).end)
            except Exception:  # (positions are a part of the engine too: say it anyway)
                pass
        qualname = root.qualname if root is not None else None
        return [EngineError(kind, where, qualname, span, message) for kind, where, message in raw]

    def _source(self, text: str, module: cst.Module, parsed, runs) -> Source:
        hints = [h for _, interp, _ in runs for h in _hints(interp)]
        foreign = list({gid: m for _, interp, _ in runs for gid, m in interp.loaded.items()}
                       .values())
        facts = runs[0][1].code_facts
        if parsed is None or not parsed.exact:
            return Source(text, module, hints, foreign=foreign,
                          kept=self._kept if self.incremental else None, facts=facts)
        header = len(module.header)
        starts = {b.node: line + (header if i == 0 else 0)
                  for i, (b, line) in enumerate(zip(parsed.blocks, parsed.starts))}
        index = {b.node: i for i, b in enumerate(parsed.blocks)}

        def members(cls: cst.ClassDef):
            """``(member, first line)`` of a top-level class (counted from the end of its
            block: the first block's text also holds the module header, the last one's
            the footer)."""
            i = index.get(cls)
            footer = module_footer(module, i, len(parsed.blocks)) if i is not None else None
            if footer is None or not isinstance(cls.body, cst.IndentedBlock):
                return None
            counts = self._parser.member_lines(cls)
            line = parsed.starts[i] + parsed.blocks[i].lines - len(cls.body.footer) - footer - \
                sum(counts)
            out = []
            for member, n in zip(cls.body.body, counts):
                out.append((member, line))
                line += n
            return out

        return Source(text, module, hints, starts, self._spans, members, foreign, self._kept,
                      facts)

    @staticmethod
    def _start(main: Interpreter, module: cst.Module, statements: dict, defs: dict,
               text_facts: tuple):
        """``start(root, reads) -> key``: what a function root starts from (what
        :meth:`Interpreter.for_root` hands it) as far as it can read it, for the root whose
        run read the functions ``reads``: the bindings of the module-level names its code
        and theirs name (a method's: its class header's too; every root's: the names of
        module-level code that defines functions, :meth:`_Statement.nested_words`), each
        value with the statement that bound it (a top-level function by its key, a class
        by its header, other statements as nodes: re-parsed, they count as changed), the
        attributes of the objects module-level code made that those bindings (or what every
        root sees) hold; and, for every root, imported modules' names, the classes (by
        their headers), which objects are submodules of which, in-place module
        constructors, frozen modules, the imported modules' hashes and the rules' facts
        about the whole text.

        The interpreter reads a module-level name only where code names it, so a root
        whose code, inlined code and these bindings are unchanged runs as before: an edit
        at module level re-runs only the roots that read what it bound anew."""
        gid = main.gid

        def class_key(info: ClassInfo) -> tuple:
            st = statements.get(info.node) if info.gid == gid else None
            return (st.header(module) if st is not None else info.node, tuple(info.bases),
                    info.is_module, info.is_optimizer, info.fields)

        def node_key(node):
            """A top-level function or method by its key (its code is among the reads of
            a root that runs it), a top-level class by its header, else the node."""
            if node in defs:
                return defs[node][0]
            st = statements.get(node) if isinstance(node, cst.ClassDef) else None
            return st.header(module) if st is not None else node

        def val_key(v: Val) -> tuple:
            ref = v.ref
            if isinstance(ref, ClassInfo):
                ref = class_key(ref)
            elif isinstance(ref, FuncRef):
                ref = (node_key(ref.node), ref.frame, class_key(ref.cls) if ref.cls else None,
                       ref.no_grad, ref.static, ref.gid)
            elif isinstance(ref, Lazy):
                # an import not read yet, by what it names and where it is looked up (the
                # workspace: a new one after files appear or go); a root that reads it
                # reads the module it finds, :func:`_touched_deps`
                ref = ("lazy", ref.module, ref.level, ref.name, ref.depth,
                       val_key(ref.fallback), getattr(ref.imports, "workspace", ref.imports),
                       getattr(ref.imports, "path", None))
            elif isinstance(ref, LazyJoin):
                ref = ("lazy-join", tuple(val_key(o) for o in ref.options))
            elts = tuple(val_key(e) for e in v.elts) if v.elts is not None else None
            return v.kind, v.segs, v.leaf, ref, elts, v.alias, v.store, v.each, v.src

        names, others, objects = {}, {}, {}
        for k, b in main.global_env.items():
            if k[0] == gid:
                names[k[1]] = (val_key(b.val), node_key(b.stmt))
            elif k[0] == "@" and ref_kind(k[1]) == "obj":
                # (the attributes of an object module-level code made: a root reads them
                # only through a value that holds the object, see ``reached``)
                objects.setdefault(k[1], {})[k] = (val_key(b.val), node_key(b.stmt))
            elif not is_global(k[0]):  # (an imported module's names: the root's reads)
                others[k] = (val_key(b.val), node_key(b.stmt))

        def held(key, out: set) -> None:
            """The objects of ``objects`` a value's key names, into ``out``."""
            if isinstance(key, (tuple, frozenset)):
                if isinstance(key, tuple) and key in objects:
                    out.add(key)
                for part in key:
                    held(part, out)

        def reached(seeds: set) -> dict:
            """The attributes of the objects ``seeds`` hold, and of those they hold."""
            out, todo = {}, list(seeds)
            while todo:
                ref = todo.pop()
                if ref in out:
                    continue
                out[ref] = objects[ref]
                more: set = set()
                held(tuple(objects[ref].values()), more)
                todo.extend(more)
            return out

        def class_outline(c: ClassInfo) -> tuple:
            """What every root may see of an imported class (some semantics look for a
            method name among all classes): its names, not its code (a root that reads its
            code or attributes reads its module, see :func:`_touched_deps`)."""
            return (tuple(sorted(c.methods)), tuple(c.bases), c.is_module, c.is_optimizer,
                    c.fields, tuple(sorted(c.attrs)))

        shared = (others, {k: class_key(c) if c.gid == gid else class_outline(c)
                           for k, c in main.classes.items()},
                  {k: frozenset(v) for k, v in main.submodules.items()},
                  dict(main.inplace_ctors), dict(main.inplace_flags), frozenset(main.frozen),
                  frozenset(main.maybe_frozen), text_facts)
        always: set = set()
        held(tuple(others.values()) + tuple(shared[1].values()), always)
        words_of = {key: d.words for key, d in defs.values()}
        nested = frozenset().union(*(statements[st].nested_words(module) for st in module.body))

        def start(root: _Root, reads) -> tuple:
            words = set(nested)
            for key, _ in reads:
                words |= words_of.get(key, frozenset()) if isinstance(key, str) else set()
            if root.cls is not None:
                words |= statements[root.cls].header_words(module)
            read = {w: names[w] for w in sorted(words) if w in names}
            seeds = set(always)
            held(tuple(read.values()), seeds)
            return shared, read, reached(seeds)

        return start


def _touched_deps(main: Interpreter, interp: Interpreter) -> set:
    """The ``(path, sha256)`` of the imported modules a root's run depends on: those it
    loaded itself and those whose names, classes or code it read (with what each of
    them imported in turn); the modules the module body loaded and the root never
    read do not count."""
    out = set(interp.deps - main.deps)
    for gid in interp.touched:
        loaded = interp.loaded.get(gid)
        if loaded is not None:
            out |= loaded.deps
    return out


def analyze_text(text: str, imports=None) -> FileResult:
    """Analyse one source text; see :func:`gradguard.analysis.analyze`."""
    return Engine().analyze(text, imports)
