"""The engine: source text in, findings out. No LSP, no I/O, no locale.

Entry point: :func:`analyze`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from gradguard.analysis.model import FileResult

if TYPE_CHECKING:
    from gradguard.analysis.imports import Imports


def analyze(text: str, imports: "Imports | None" = None) -> FileResult:
    """Analyse one Python source text and return every rule's findings, sorted by position.

    ``text`` is the file's content (str; a leading BOM and CRLF/CR line endings are fine).
    Never raises for bad input: a text that does not parse (or nests too deeply) gives a
    :class:`FileResult` with ``syntax_error`` set and no findings. Selection
    (``select``/``ignore``) and ``# noqa`` suppression are applied by the callers.

    ``imports`` finds the modules of the user's that the text imports
    (:class:`gradguard.workspace.FileImports`); their functions and classes are then
    interpreted like the file's own, and related locations and fixes may point into them
    (``Span.path``). Without it, imports of the user's modules are unknown names.
    """
    from gradguard.analysis.engine import analyze_text

    return analyze_text(text, imports)


def incremental_analyzer() -> Callable[..., FileResult]:
    """A new analyser for successive texts of one document (the language server makes
    one per open document): same results as :func:`analyze`, but an edit re-parses only
    the statements it touched and re-runs only the roots whose code it changed. Call it
    as ``analyzer(text, imports=None)``, like :func:`analyze`."""
    from gradguard.analysis.engine import Engine

    return Engine(incremental=True).analyze
