"""Checking files: read, analyse, select, suppress and (optionally) fix, in parallel.

One :class:`Task` per file goes in, one :class:`FileReport` comes out; the work for a
file runs in a worker process when there are more than :data:`PARALLEL_THRESHOLD`
files, and the reports come back in task order. The engine's result for a text comes
from the task's :class:`~gradguard.cache.ResultCache` when it holds one (selection and
suppression are applied after it, so they never need invalidating), except the results
whose fixes ``--fix`` and ``--diff`` write: those are always analysed.

A notebook (``.ipynb``) is analysed as the program of its code cells
(:mod:`gradguard.notebooks`); its findings and problems keep program positions and
carry the notebook's :class:`~gradguard.notebooks.CellMap`, which the output formats
use to name cells. Its fixes are only those that stay inside one cell, and ``--fix``
writes them into the cells' sources.
"""

from __future__ import annotations

import os
import traceback
from dataclasses import dataclass
from typing import Iterator

from gradguard import analysis
from gradguard.analysis.model import EngineError, FileResult, Finding, Message, Pos, SyntaxProblem
from gradguard.cache import ResultCache
from gradguard.config import Settings, rule_enabled, severity_for
from gradguard.files import DecodeError, Problem, Source, read_source
from gradguard.fixes import apply_fixes, compatible_fixes
from gradguard.notebooks import CellMap, Notebook, NotebookError, is_notebook
from gradguard.notebooks import parse as parse_notebook
from gradguard.rules import N_, engine_error_message, syntax_error_message
from gradguard.suppression import unsuppressed
from gradguard.workspace import Workspace

PARALLEL_THRESHOLD = 4
"""Up to this many files are checked in the calling process."""

MAX_FIX_ROUNDS = 3
"""``--fix`` re-analyses and fixes again until nothing changes, at most this often."""


@dataclass(frozen=True)
class Task:
    """Check the file at ``path`` (absolute) under ``settings``; with ``fix``, also
    compute the text with the preferred fixes applied. With a ``cache``, engine
    results are looked up there first and stored there after analysing."""

    path: str
    settings: Settings
    fix: bool = False
    cache: ResultCache | None = None


@dataclass(frozen=True)
class Diagnostic:
    """A finding as reported: the file's absolute ``path``, the finding, and its
    ``severity`` under the file's settings ("error", "warning" or "info"). In a notebook,
    ``cells`` maps the finding's positions (in the program of its code cells) to cells."""

    path: str
    finding: Finding
    severity: str
    cells: CellMap | None = None


@dataclass(frozen=True)
class FileReport:
    """The outcome of one :class:`Task`.

    ``diagnostics`` are the findings left (after fixing, in fix mode), by position;
    ``errors`` the engine's internal errors in that text (one function, or one rule, that
    could not be analysed: internal problems at the function's header, see
    :func:`error_problem`; the other findings are there); ``problem`` is set when the
    file could not be checked (then ``diagnostics`` and ``errors`` are empty). In fix mode, ``source`` is the file as read and ``fixed_text`` the text
    after fixing when fixes changed it; ``fixed`` lists the codes of the fixes applied.
    """

    path: str
    diagnostics: tuple[Diagnostic, ...] = ()
    errors: tuple[Problem, ...] = ()
    problem: Problem | None = None
    source: Source | None = None
    fixed_text: str | None = None
    fixed: tuple[str, ...] = ()


def error_problem(path: str, error: EngineError, cells: CellMap | None = None) -> Problem:
    """An internal error of the engine in the file at ``path`` as an internal
    :class:`Problem` at the header of the function it is about (line 1 for the module
    body); ``cells`` for a notebook."""
    return Problem(path, error.span.start, engine_error_message(error), internal=True,
                   end=error.span.end, cells=cells)


@dataclass(frozen=True)
class _Document:
    """What is analysed of a file: its ``program`` (the file's text, or the code cells
    of a ``notebook``)."""

    program: str
    notebook: Notebook | None = None

    @property
    def cells(self) -> CellMap | None:
        return self.notebook.cells if self.notebook is not None else None

    def fixed(self, fixes: list) -> "_Document":
        """The document with ``fixes`` applied."""
        if self.notebook is None:
            return _Document(apply_fixes(self.program, fixes))
        notebook = self.notebook.with_fixes(fixes)
        return _Document(notebook.program, notebook)

    def file_text(self) -> str:
        """The text of the file holding this document."""
        return self.program if self.notebook is None else self.notebook.dumps()


def _select(result: FileResult, doc: _Document, task: Task
            ) -> tuple[list[Finding], SyntaxProblem | None]:
    """The findings of ``result`` (the engine's for ``doc``) that the settings enable
    and no comment suppresses (in a notebook, without the fixes that leave a cell), or
    the syntax problem that stopped the analysis."""
    if result.syntax_error is not None:
        return [], result.syntax_error
    enabled = [f for f in result.findings if rule_enabled(task.settings, f.code, task.path)]
    findings = unsuppressed(enabled, doc.program)
    if doc.cells is not None:
        findings = [doc.cells.finding(f) for f in findings]
    return findings, None


def _errors(result: FileResult, task: Task, doc: _Document) -> tuple[Problem, ...]:
    """The internal errors of ``result`` as problems (a rule's only when the settings
    enable that rule for the file: a disabled rule's findings are not missed)."""
    return tuple(error_problem(task.path, e, doc.cells) for e in result.errors
                 if e.kind != "rule" or rule_enabled(task.settings, e.where, task.path))


class _Uncached(Exception):
    """The engine would be needed, and was not to be run."""


_WORKSPACE: Workspace | None = None


def workspace() -> Workspace:
    """This process's :class:`~gradguard.workspace.Workspace` (each file's imports are
    looked up under its project root; a module of the user's is read and run once per
    process, whatever imports it)."""
    global _WORKSPACE
    if _WORKSPACE is None:
        _WORKSPACE = Workspace()
    return _WORKSPACE


def _analyze(text: str, cache: ResultCache | None, engine: bool = True,
             read: bool = True, path: str | None = None) -> FileResult:
    """The engine's result for ``text`` (the file at ``path``, whose imports of the
    user's own modules are followed): from ``cache`` if it has it (and ``read``), else
    analysed (and stored in ``cache``); without ``engine``, raises :class:`_Uncached`
    instead of analysing."""
    ws = workspace()
    scope = ws.importer(path).scope(text) if cache is not None and path is not None else None
    result = cache.get(text, ws.text_of, path, scope) if cache is not None and read else None
    if result is None:
        if not engine:
            raise _Uncached
        result = analysis.analyze(text, ws.importer(path) if path is not None else None)
        if cache is not None:
            cache.put(text, result, path, scope)
    return result


def _syntax_problem(task: Task, error: SyntaxProblem, doc: _Document) -> FileReport:
    return FileReport(task.path, problem=Problem(
        task.path, error.pos, syntax_error_message(error.message), syntax=True,
        cells=doc.cells))


def _fix_loop(source: Source, doc: _Document, task: Task, engine: bool) -> FileReport:
    """Apply preferred fixes round after round until stable (at most MAX_FIX_ROUNDS).

    The edits written into the file never come from the cache (a planted entry would
    write its own code): a cached result serves only a text it offers no fix for, and
    every text with fixes is analysed."""
    first, fixed = doc, []
    result = task.cache.get(doc.program, workspace().text_of, task.path,
                            workspace().importer(task.path).scope(doc.program)) \
        if task.cache is not None else None
    if result is None or any(f.preferred_fix for f in result.findings):
        result = _analyze(doc.program, task.cache, engine, read=False, path=task.path)
    findings, error = _select(result, doc, task)
    if error is not None:
        return _syntax_problem(task, error, doc)
    errors = _errors(result, task, doc)
    tried = set()
    for _ in range(MAX_FIX_ROUNDS):
        # (a fix that edits an imported module is offered, not applied to other files; a
        # fix offered again as it was applied in an earlier round did not remove its
        # finding, and is not applied twice)
        lines = doc.program.splitlines()
        candidates = [(f.code, f.preferred_fix) for f in findings if f.preferred_fix
                      and f.preferred_fix.in_file and _signature(f, lines) not in tried]
        tried.update(_signature(f, lines) for f in findings if f.preferred_fix)
        chosen = compatible_fixes([fix for _, fix in candidates])
        if not chosen:
            break
        new_doc = doc.fixed(chosen)
        new_result = _analyze(new_doc.program, task.cache, engine, read=False, path=task.path)
        new_findings, error = _select(new_result, new_doc, task)
        if error is not None:
            return FileReport(task.path, problem=Problem(
                task.path, error.pos,
                Message(N_("internal error: the fixed text does not parse ({message}); "
                           "the file was left unchanged"), {"message": error.message}),
                internal=True, cells=new_doc.cells))
        applied = {id(fix) for fix in chosen}
        fixed += [code for code, fix in candidates if id(fix) in applied]
        doc, findings, errors = new_doc, new_findings, _errors(new_result, task, new_doc)
    changed = doc.program != first.program
    return FileReport(task.path, _diagnostics(findings, task, doc), errors, source=source,
                      fixed_text=doc.file_text() if changed else None, fixed=tuple(fixed))


def _signature(f: Finding, lines: list[str]) -> tuple:
    """A finding and its preferred fix as the user reads them: the rule, the line it is
    on (its text, wherever earlier fixes moved it, without what the fix inserts: a fix
    that left its finding and added to its line is the same fix again), the fix's title
    and inserted texts."""
    fix = f.preferred_fix
    line = lines[f.span.start.line - 1] if 0 < f.span.start.line <= len(lines) else None
    inserted = [e.new_text for e in fix.edits if e.new_text and "\n" not in e.new_text]
    for text in sorted(inserted, key=len, reverse=True):
        line = line.replace(text, "") if line is not None else None
    return (f.code, line, fix.title.msgid, repr(sorted(fix.title.args.items())),
            tuple(e.new_text for e in fix.edits))


def _diagnostics(findings: list[Finding], task: Task, doc: _Document
                 ) -> tuple[Diagnostic, ...]:
    return tuple(Diagnostic(task.path, f, severity_for(task.settings, f.code), doc.cells)
                 for f in sorted(findings, key=lambda f: (f.span, f.code)))


def check_file(task: Task, engine: bool = True) -> FileReport | None:
    """Check one file. Never raises: unreadable or undecodable files, syntax errors and
    bugs in GradGuard (``internal``, with the traceback) become the report's ``problem``.
    Without ``engine``, only what the task's cache holds is used: None when a text
    would need analysing."""
    try:
        source = read_source(task.path)
    except OSError as e:
        return FileReport(task.path, problem=Problem(
            task.path, None, Message(N_("error: cannot read: {reason}"),
                                     {"reason": e.strerror or str(e)})))
    except DecodeError as e:
        return FileReport(task.path, problem=Problem(
            task.path, Pos(1, 0), Message(N_("error: cannot decode: {reason}"),
                                            {"reason": str(e)})))
    try:
        if is_notebook(task.path):
            try:
                notebook = parse_notebook(source.text)
            except NotebookError as e:
                return FileReport(task.path, problem=Problem(task.path, e.pos, e.message))
            doc = _Document(notebook.program, notebook)
        else:
            doc = _Document(source.text)
        if task.fix:
            return _fix_loop(source, doc, task, engine)
        result = _analyze(doc.program, task.cache, engine, path=task.path)
        findings, error = _select(result, doc, task)
        if error is not None:
            return _syntax_problem(task, error, doc)
        return FileReport(task.path, _diagnostics(findings, task, doc),
                          _errors(result, task, doc))
    except _Uncached:
        return None
    except Exception:  # a bug: report it with its traceback, keep checking other files
        return FileReport(task.path, problem=Problem(
            task.path, None, Message(N_("internal error: {error}"),
                                     {"error": traceback.format_exc().rstrip()}),
            internal=True))


def default_jobs() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one,
    else the CPU count); at least 1."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def iter_reports(tasks: list[Task], jobs: int | None = None) -> Iterator[FileReport]:
    """:func:`check_file` of every task, in task order, as each is ready.

    Tasks whose texts' results are all in their cache are reported from this process
    (reading a file and its entry costs less than starting a worker); the others are
    checked in ``jobs`` worker processes (default :func:`default_jobs`) when there are
    more than :data:`PARALLEL_THRESHOLD` of them and ``jobs`` > 1, else here too. Each
    run reads the user's modules afresh (a new :func:`workspace`)."""
    global _WORKSPACE
    _WORKSPACE = None
    cached = [check_file(t, engine=False) if t.cache is not None else None for t in tasks]
    todo = [t for t, report in zip(tasks, cached) if report is None]
    jobs = jobs or default_jobs()
    if jobs <= 1 or len(todo) <= PARALLEL_THRESHOLD:
        fresh = map(check_file, todo)
        yield from (report or next(fresh) for report in cached)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor  # (imports multiprocessing: slow)

    if multiprocessing.get_start_method() == "fork":
        analysis.analyze("")  # import the engine once: forked workers inherit it
    workers = min(jobs, len(todo))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        fresh = pool.map(check_file, todo, chunksize=max(1, min(16, len(todo) // (workers * 4))))
        yield from (report or next(fresh) for report in cached)
