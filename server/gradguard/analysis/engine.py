"""Placeholder while the interpreter is written."""

import libcst as cst

from gradguard.analysis.model import FileResult, Pos, SyntaxProblem


def analyze_text(text: str) -> FileResult:
    try:
        cst.parse_module(text)
    except cst.ParserSyntaxError as e:
        return FileResult(syntax_error=SyntaxProblem(Pos(e.raw_line, e.raw_column), e.message))
    return FileResult()
