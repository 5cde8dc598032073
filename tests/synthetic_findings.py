"""Synthetic findings for the CLI, output and fix tests, independent of the engine.

:func:`fake_analyze` stands in for ``gradguard.analysis.analyze``: it reports GG101 on
every ``loss.backward()`` (preferred fix: detach; alternative: retain_graph=True),
GG103 on every ``cached_h`` (no fix), and a syntax error for any text containing
``SYNTAX``.
"""

from __future__ import annotations

from gradguard.analysis.model import (
    Edit, FileResult, Finding, Fix, Message, Pos, Related, Span, SyntaxProblem,
)
from gradguard.fixes import split_lines

BACKWARD = "loss.backward()"


def backward_finding(line: int, col: int) -> Finding:
    """GG101 on ``loss.backward()`` at ``line``:``col`` (0-based column)."""
    end = col + len(BACKWARD)
    return Finding(
        code="GG101",
        span=Span.of(line, col, line, end),
        message=Message("`{name}` is backpropagated after line {line} freed its graph",
                        {"name": "loss", "line": 1}),
        related=(Related(Span.of(1, 0, 1, 4), Message("graph of `{name}` built here",
                                                      {"name": "loss"})),),
        fixes=(
            Fix(Message("Detach `{name}`", {"name": "loss"}),
                (Edit(Span.of(line, col + 4, line, col + 4), ".detach()"),), preferred=True),
            Fix(Message("Keep the graph (retain_graph=True: slower, more memory)"),
                (Edit(Span.of(line, end - 1, line, end - 1), "retain_graph=True"),),
                applicability="unsafe"),
        ),
    )


def cached_finding(line: int, col: int) -> Finding:
    """GG103 on ``cached_h`` at ``line``:``col``, with no fix."""
    return Finding("GG103", Span.of(line, col, line, col + 8),
                   Message("`{name}` is reused in every iteration", {"name": "cached_h"}))


def fake_analyze(text: str, imports=None) -> FileResult:
    """The synthetic engine described in the module docstring."""
    if "SYNTAX" in text:
        return FileResult(syntax_error=SyntaxProblem(Pos(2, 4), "unexpected token"))
    findings = []
    for number, line in enumerate(split_lines(text.removeprefix("\ufeff")), start=1):
        for needle, make in ((BACKWARD, backward_finding), ("cached_h", cached_finding)):
            col = line.find(needle)
            while col >= 0:
                findings.append(make(number, col))
                col = line.find(needle, col + 1)
    return FileResult(tuple(sorted(findings, key=lambda f: f.span)))
