"""The engine: source text in, findings out. No LSP, no I/O, no locale.

Entry point: :func:`analyze`.
"""

from __future__ import annotations

from typing import Callable

from gradguard.analysis.model import FileResult


def analyze(text: str) -> FileResult:
    """Analyse one Python source text and return every rule's findings, sorted by position.

    ``text`` is the file's content (str; a leading BOM and CRLF/CR line endings are fine).
    Never raises for bad input: a text that does not parse (or nests too deeply) gives a
    :class:`FileResult` with ``syntax_error`` set and no findings. Selection
    (``select``/``ignore``) and ``# noqa`` suppression are applied by the callers.
    """
    from gradguard.analysis.engine import analyze_text

    return analyze_text(text)


def incremental_analyzer() -> Callable[[str], FileResult]:
    """A new analyser for successive texts of one document (the language server makes
    one per open document): same results as :func:`analyze`, but an edit re-parses only
    the statements it touched and re-runs only the roots whose code it changed."""
    from gradguard.analysis.engine import Engine

    return Engine(incremental=True).analyze
