"""Report formats of ``gradguard check``: text, json (ruff's field names), sarif 2.1.0,
github (workflow commands), plus statistics, fix summaries and unified diffs.

Every function takes ``tr``, the :class:`gettext.NullTranslations` of the output
locale, and renders each :class:`~gradguard.analysis.model.Message` through it.
Locations printed are 1-based lines and 1-based columns counted in characters; an
end location is the position just after the last character (as in ruff's JSON).
Files under the current directory are shown relative to it.

In a notebook (``.ipynb``) a location names its cell, as ruff does: text
``train.ipynb:cell 3:4:5`` (cells numbered from 1 over all cells, markdown included,
lines and columns within the cell, line numbers quoted in messages too: "line 4", or
"line 2 of cell 2" for another cell's); json adds ``"cell"`` (null outside notebooks) and
counts ``location``/``end_location`` within that cell, as related locations and fix edits
(each with its own ``"cell"``). SARIF cannot address a cell: its regions count lines of the
program of the notebook's code cells in order (the cells concatenated, IPython magics as
one line each), each location carries ``properties.cell`` and ``properties.cellRegion``
(the region within the cell), and a notebook's results carry no ``fixes`` (their regions
are not the file's text, so a tool applying them would corrupt it). The github format
uses the same program lines and starts the message with the ``cell N:line:col`` place.
"""

from __future__ import annotations

import difflib
import gettext
import json
import os
import urllib.parse
from collections import Counter
from pathlib import Path
from typing import Iterable

from gradguard import __version__, project_url
from gradguard.analysis.model import Fix, Pos, Span
from gradguard.checker import Diagnostic
from gradguard.files import Problem
from gradguard.fixes import split_lines
from gradguard.notebooks import CellMap
from gradguard.rules import N_, all_rules, rule_for

FORMATS = ("text", "json", "sarif", "github")
"""The values of ``--format``."""

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_GITHUB_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}
_COLOR = {"error": "\033[1;31m", "warning": "\033[1;33m", "info": "\033[1;36m",
          "bold": "\033[1m", "fix": "\033[32m"}
_RESET = "\033[0m"


def display_path(path: str) -> str:
    """``path`` relative to the current directory when inside it, else absolute."""
    rel = os.path.relpath(path)
    return path if rel == os.pardir or rel.startswith(os.pardir + os.sep) else rel


def _loc(pos: Pos) -> dict[str, int]:
    return {"row": pos.line, "column": pos.column + 1}


def _place(pos: Pos, cells: CellMap | None) -> str:
    """``line:col`` of ``pos``, in a notebook ``cell N:line:col`` within its cell."""
    if cells is None:
        return f"{pos.line}:{pos.column + 1}"
    cell, at = cells.locate(pos)
    return f"cell {cell}:{at.line}:{at.column + 1}"


def _span_cells(span: Span, cells: CellMap | None) -> CellMap | None:
    """The cell map that counts ``span``'s lines: none for a span in another file."""
    return cells if span.path is None else None


def _render(message, d: Diagnostic, tr: gettext.NullTranslations) -> str:
    """``message`` of ``d`` rendered; in a notebook, its line numbers counted in cells."""
    if d.cells is not None:
        message = d.cells.message(message, d.cells.cell_of(d.finding.span.start.line))
    return message.render(tr.gettext)


def _sort_key(item: Diagnostic | Problem) -> tuple:
    if isinstance(item, Problem):
        pos = item.pos or Pos(0, 0)
        return (display_path(item.path), pos.line, pos.column, "")
    return (display_path(item.path), item.finding.span.start.line,
            item.finding.span.start.column, item.finding.code)


def _problem_line(problem: Problem, tr: gettext.NullTranslations) -> str:
    where = display_path(problem.path)
    if problem.pos is not None:
        where += ":" + _place(problem.pos, problem.cells)
    return f"{where}: {problem.message.render(tr.gettext)}"


def problem_lines(problems: Iterable[Problem], tr: gettext.NullTranslations) -> str:
    """One line per problem (``path:row:col: syntax error: ...``), sorted by path."""
    return "".join(_problem_line(p, tr) + "\n" for p in sorted(problems, key=_sort_key))


def text_report(diagnostics: Iterable[Diagnostic], problems: Iterable[Problem],
                tr: gettext.NullTranslations, color: bool = False) -> str:
    """The ``text`` format: per finding ``path:row:col: CODE [name] message``, then its
    related locations and its preferred fix's title indented by four spaces; problems as
    ``path:row:col: message``; all sorted by path, then position. ANSI colours if ``color``."""
    def paint(style: str, s: str) -> str:
        return f"{_COLOR[style]}{s}{_RESET}" if color else s

    out = []
    for item in sorted([*diagnostics, *problems], key=_sort_key):
        if isinstance(item, Problem):
            out.append(_problem_line(item, tr))
            continue
        f, path = item.finding, display_path(item.path)
        where = paint("bold", f"{path}:{_place(f.span.start, item.cells)}:")
        out.append(f"{where} {paint(item.severity, f.code)} [{rule_for(f.code).name}] "
                   f"{_render(f.message, item, tr)}")
        for r in f.related:
            where = display_path(r.span.path) if r.span.path is not None else path
            out.append(f"    {where}:{_place(r.span.start, _span_cells(r.span, item.cells))}: "
                       f"{_render(r.message, item, tr)}")
        if f.preferred_fix is not None:
            title = _render(f.preferred_fix.title, item, tr)
            out.append("    " + paint("fix", tr.gettext(N_("fix: {title}")).format(title=title)))
    return "".join(line + "\n" for line in out)


def summary(diagnostics: list[Diagnostic], problems: list[Problem],
            tr: gettext.NullTranslations, errors: Iterable[Problem] = ()) -> str:
    """The closing lines of the text format: how many findings, how many can be fixed
    with ``--fix``, how many internal errors of the engine (``errors``: functions whose
    findings are missing), how many files could not be checked; "All checks passed." if
    none of these."""
    ngettext = tr.ngettext
    lines = []
    if diagnostics:
        n = len(diagnostics)
        lines.append(ngettext("Found {count} finding.", "Found {count} findings.", n).format(count=n))
        fixable = sum(1 for d in diagnostics if d.finding.preferred_fix is not None and
                      d.finding.preferred_fix.in_file)
        if fixable:
            lines.append(ngettext("{count} of them can be fixed with --fix.",
                                  "{count} of them can be fixed with --fix.", fixable
                                  ).format(count=fixable))
    errors = list(errors)
    if errors:
        n = len(errors)
        lines.append(ngettext("{count} internal error: some findings are missing.",
                              "{count} internal errors: some findings are missing.", n
                              ).format(count=n))
    if problems:
        n = len(problems)
        lines.append(ngettext("{count} file could not be checked.",
                              "{count} files could not be checked.", n).format(count=n))
    if not lines:
        lines.append(tr.gettext(N_("All checks passed.")))
    return "".join(line + "\n" for line in lines)


def fixed_lines(fixed: Iterable[tuple[str, tuple[str, ...]]], tr: gettext.NullTranslations) -> str:
    """One line per fixed file: ``path: fixed N findings (GG101, GG103)``; ``fixed``
    pairs an absolute path with the codes of the fixes applied there."""
    out = []
    for path, codes in sorted(fixed, key=lambda item: display_path(item[0])):
        n = len(codes)
        out.append(tr.ngettext("{path}: fixed {count} finding ({codes})",
                               "{path}: fixed {count} findings ({codes})", n).format(
            path=display_path(path), count=n, codes=", ".join(sorted(set(codes)))))
    return "".join(line + "\n" for line in out)


def _json_span(span: Span, cells: CellMap | None) -> dict:
    """``location`` and ``end_location`` of ``span``; in a notebook, ``cell`` and the
    locations within it."""
    cells = _span_cells(span, cells)
    if cells is None:
        return {"location": _loc(span.start), "end_location": _loc(span.end)}
    cell, in_cell, _ = cells.locate_span(span)
    return {"cell": cell, "location": _loc(in_cell.start), "end_location": _loc(in_cell.end)}


def _json_fix(fix: Fix, d: Diagnostic, tr: gettext.NullTranslations) -> dict:
    return {
        "message": _render(fix.title, d, tr),
        "applicability": fix.applicability,
        "edits": [{"content": e.new_text, **_json_span(e.span, d.cells),
                   **({"filename": e.span.path} if e.span.path is not None else {})}
                  for e in fix.edits],
    }


def json_report(diagnostics: Iterable[Diagnostic], tr: gettext.NullTranslations,
                errors: Iterable[Problem] = ()) -> str:
    """The ``json`` format: a list of findings with ruff's ``--output-format json``
    field names (code, name, severity, message, filename (absolute), cell (a notebook's
    cell, else null), location, end_location, fix, alternative_fixes, related, url),
    sorted by path and position.

    Each internal error of the engine (``errors``: a function that could not be
    analysed) is an entry of the same list, with the same fields: ``"code": null``,
    ``"kind": "internal-error"``, ``"severity": "error"``, the message, and the location
    of the function's header (line 1 for the module body); no fix, no url. A syntax error
    (an error problem with ``syntax`` set) is such an entry too, ``"kind":
    "syntax-error"``, at Python's position of the error (ruff reports one the same way)."""
    items = []
    for d in sorted([*diagnostics, *errors], key=_sort_key):
        if isinstance(d, Problem):
            pos = d.pos or Pos(1, 0)
            where = _json_span(Span(pos, d.end or pos), d.cells)
            items.append({
                "code": None,
                "kind": "syntax-error" if d.syntax else "internal-error",
                "name": None,
                "severity": "error",
                "message": d.message.render(tr.gettext),
                "filename": d.path,
                "cell": where.pop("cell", None),
                **where,
                "fix": None,
                "alternative_fixes": [],
                "related": [],
                "url": None,
            })
            continue
        f = d.finding
        preferred = f.preferred_fix
        where = _json_span(f.span, d.cells)
        items.append({
            "code": f.code,
            "name": rule_for(f.code).name,
            "severity": d.severity,
            "message": _render(f.message, d, tr),
            "filename": d.path,
            "cell": where.pop("cell", None),
            **where,
            "fix": _json_fix(preferred, d, tr) if preferred is not None else None,
            "alternative_fixes": [_json_fix(x, d, tr) for x in f.fixes if x is not preferred],
            "related": [{"filename": r.span.path or d.path, **_json_span(r.span, d.cells),
                         "message": _render(r.message, d, tr)} for r in f.related],
            "url": rule_for(f.code).url,
        })
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


def statistics_report(diagnostics: Iterable[Diagnostic], as_json: bool) -> str:
    """Findings counted per code, most frequent first: ``count  CODE  name`` lines, or
    with ``as_json`` a list of ``{"code", "name", "count", "fixable"}`` (ruff's shape)."""
    counts: Counter[str] = Counter()
    fixable: Counter[str] = Counter()
    for d in diagnostics:
        counts[d.finding.code] += 1
        fixable[d.finding.code] += d.finding.preferred_fix is not None
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if as_json:
        return json.dumps([{"code": code, "name": rule_for(code).name, "count": n,
                            "fixable": fixable[code] > 0} for code, n in rows], indent=2) + "\n"
    return "".join(f"{n:>5}  {code}  {rule_for(code).name}\n" for code, n in rows)


def _github_escape(value: str, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return value.replace(":", "%3A").replace(",", "%2C") if prop else value


def github_report(diagnostics: Iterable[Diagnostic], problems: Iterable[Problem],
                  tr: gettext.NullTranslations) -> str:
    """The ``github`` format: one workflow command per finding,
    ``::error file=P,line=L,col=C,endLine=L2,endColumn=C2,title=GG101::message``
    (``warning`` / ``notice`` for the other severities), related locations appended to
    the message on their own lines; problems as ``::error`` with their location."""
    out = []
    for item in sorted([*diagnostics, *problems], key=_sort_key):
        path = _github_escape(display_path(item.path), prop=True)
        if isinstance(item, Problem):
            pos = item.pos or Pos(1, 0)
            text = item.message.render(tr.gettext)
            if item.cells is not None:
                text = f"{_place(pos, item.cells)}: {text}"
            out.append(f"::error file={path},line={pos.line},col={pos.column + 1}::"
                       + _github_escape(text))
            continue
        f, span = item.finding, item.finding.span
        text = _render(f.message, item, tr)
        if item.cells is not None:
            text = f"{_place(span.start, item.cells)}: {text}"
        for r in f.related:
            text += (f"\n{display_path(r.span.path or item.path)}:"
                     f"{_place(r.span.start, _span_cells(r.span, item.cells))}: "
                     f"{_render(r.message, item, tr)}")
        out.append(f"::{_GITHUB_COMMAND[item.severity]} file={path},line={span.start.line},"
                   f"col={span.start.column + 1},endLine={span.end.line},"
                   f"endColumn={span.end.column + 1},title={f.code}::{_github_escape(text)}")
    return "".join(line + "\n" for line in out)


def _sarif_region(span: Span) -> dict[str, int]:
    return {"startLine": span.start.line, "startColumn": span.start.column + 1,
            "endLine": span.end.line, "endColumn": span.end.column + 1}


def _sarif_artifact(path: str) -> dict[str, str]:
    """The SARIF ``artifactLocation`` of ``path``: relative to ``%SRCROOT%`` inside the
    current directory, else a ``file:`` URI. The URI percent-encodes the file name's
    bytes (``os.fsencode``), so a name that is not UTF-8 (held as surrogate escapes) is
    kept byte for byte instead of failing to encode."""
    rel = os.path.relpath(path)
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return {"uri": Path(path).as_uri()}
    return {"uri": urllib.parse.quote(os.fsencode(rel.replace(os.sep, "/"))),
            "uriBaseId": "%SRCROOT%"}


def _sarif_location(path: str, span: Span, cells: CellMap | None = None) -> dict:
    location = {"physicalLocation": {"artifactLocation": _sarif_artifact(path),
                                     "region": _sarif_region(span)}}
    cells = _span_cells(span, cells)
    if cells is not None:
        cell, in_cell, _ = cells.locate_span(span)
        location["properties"] = {"cell": cell, "cellRegion": _sarif_region(in_cell)}
    return location


def sarif_report(diagnostics: Iterable[Diagnostic], problems: Iterable[Problem],
                 tr: gettext.NullTranslations) -> str:
    """The ``sarif`` format: a SARIF 2.1.0 log with one run. The driver lists every rule
    (docs in Markdown); each result has its level (info -> note), location, related
    locations and fixes; problems (syntax errors and internal errors of the engine
    included) become tool execution notifications of level "error", and mark the
    invocation unsuccessful (``executionSuccessful: false``): some code went unchecked.
    URIs are relative to ``%SRCROOT%``, the current directory, for files inside it;
    columns count Unicode code points. Notebooks: see the module docstring."""
    rules = all_rules()
    index = {r.code: i for i, r in enumerate(rules)}
    results = []
    for d in sorted(diagnostics, key=_sort_key):
        f = d.finding
        result = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": _render(f.message, d, tr)},
            "locations": [_sarif_location(d.path, f.span, d.cells)],
        }
        if f.related:
            result["relatedLocations"] = [
                {"id": i, **_sarif_location(r.span.path or d.path, r.span, d.cells),
                 "message": {"text": _render(r.message, d, tr)}}
                for i, r in enumerate(f.related, start=1)]
        fixes = [] if d.cells is not None else [{"description": {"text": _render(x.title, d, tr)},
                  "artifactChanges": [{"artifactLocation": _sarif_artifact(file),
                                       "replacements": [
                                           {"deletedRegion": _sarif_region(e.span),
                                            "insertedContent": {"text": e.new_text}}
                                           for e in x.edits if (e.span.path or d.path) == file]}
                                      for file in dict.fromkeys(e.span.path or d.path
                                                                for e in x.edits)]}
                 for x in f.fixes if x.edits]
        if fixes:
            result["fixes"] = fixes
        results.append(result)
    problems = sorted(problems, key=_sort_key)
    notifications = []
    for p in problems:
        location = {"artifactLocation": _sarif_artifact(p.path)}
        if p.pos is not None:
            location["region"] = {"startLine": p.pos.line, "startColumn": p.pos.column + 1}
            if p.end is not None:
                location["region"].update(endLine=p.end.line, endColumn=p.end.column + 1)
        where = {"physicalLocation": location}
        if p.pos is not None and p.cells is not None:
            cell, at = p.cells.locate(p.pos)
            where["properties"] = {"cell": cell, "cellRegion": {
                "startLine": at.line, "startColumn": at.column + 1}}
        notifications.append({"level": "error", "message": {"text": p.message.render(tr.gettext)},
                              "locations": [where]})
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "GradGuard",
                "version": __version__,
                "informationUri": project_url("Repository"),
                "rules": [{
                    "id": r.code,
                    "name": r.name,
                    "shortDescription": {"text": tr.gettext(r.summary)},
                    "fullDescription": {"text": tr.gettext(r.summary)},
                    "help": {"text": tr.gettext(r.docs), "markdown": tr.gettext(r.docs)},
                    "helpUri": r.url,
                    "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]},
                } for r in rules],
            }},
            "invocations": [{"executionSuccessful": not problems,
                             "toolExecutionNotifications": notifications}],
            "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().as_uri().rstrip("/") + "/"}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def unified_diff(path: str, old: str, new: str) -> str:
    """A unified diff from ``old`` to ``new`` for the file at ``path`` (shown as
    ``--- path`` / ``+++ path``), each line as in the file; "" if they are equal."""
    def lines(text: str) -> list[str]:
        out = split_lines(text)
        if out and not out[-1].endswith(("\n", "\r")):
            out[-1] += "\n"
        return out

    shown = display_path(path)
    return "".join(difflib.unified_diff(lines(old), lines(new), fromfile=shown, tofile=shown))
