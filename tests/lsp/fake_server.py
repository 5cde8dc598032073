"""The real GradGuard server with a scripted engine, for testing the server's mechanics.

The engine reports GG101 on every ``boom()`` call, related to line 1 ("graph built
here"), with two fixes: ``safe()`` (preferred) and ``boom(retain_graph=True)``. A text
that ``ast`` cannot parse is a syntax error. A text containing ``# block`` makes the
engine wait (in its worker thread) until the test runs the command ``test.release``;
the command ``test.waitStarted`` returns once such an analysis has started. The engine
never sleeps: tests synchronise on these commands and on notifications. The command
``test.progressDelay`` sets the seconds an analysis runs before its work-done progress
shows (0: at once, so that a test needs not wait to see that none comes).
"""

import ast
import asyncio
import re
import threading

from gradguard.analysis.model import (Edit, FileResult, Finding, Fix, Message, Pos, Related,
                                      Span, SyntaxProblem)
from gradguard.lsp import server

STARTED = threading.Event()
RELEASE = threading.Event()


def fake_analyze(text: str, imports=None) -> FileResult:
    try:
        ast.parse(text)
    except SyntaxError as error:
        return FileResult(syntax_error=SyntaxProblem(Pos(error.lineno or 1, 0), error.msg))
    if "# block" in text:
        STARTED.set()
        RELEASE.wait(120)
        RELEASE.clear()
    findings = []
    for number, line in enumerate(text.splitlines(), start=1):
        for m in re.finditer(r"boom\(\)", line):
            span = Span(Pos(number, m.start()), Pos(number, m.end()))
            findings.append(Finding(
                code="GG101", span=span,
                message=Message("`{name}` is backpropagated twice", {"name": "loss"}),
                related=(Related(Span.of(1, 0, 1, 4), Message("graph built here")),),
                fixes=(
                    Fix(Message("Call safe() instead"),
                        (Edit(Span(span.start, Pos(number, m.start() + 4)), "safe"),),
                        preferred=True),
                    Fix(Message("Retain the graph (slow)"),
                        (Edit(Span(Pos(number, m.end() - 1), Pos(number, m.end() - 1)),
                              "retain_graph=True"),)),
                )))
    return FileResult(findings=tuple(findings))


ls = server.build_server(lambda: fake_analyze)


@ls.command("test.waitStarted")
async def wait_started(ls, *args):
    started = await asyncio.get_running_loop().run_in_executor(None, STARTED.wait, 120)
    STARTED.clear()
    return started


@ls.command("test.progressDelay")
def progress_delay(ls, *args):
    ls.progress_delay = float(args[0])
    return True


@ls.command("test.release")
def release(ls, *args):
    RELEASE.set()
    return True


if __name__ == "__main__":
    ls.start_io()
