"""The real GradGuard server and engine with one rule broken: the finding builder of
GG101 (backward-through-freed-graph) raises, as a bug in that rule would. Every other
rule works as shipped."""

from gradguard.lsp import server
from gradguard.rules import gg101_backward_through_freed_graph as gg101


def broken_build(*args, **kwargs):
    raise RuntimeError("a bug planted in GG101")


gg101.build = broken_build

if __name__ == "__main__":
    server.build_server().start_io()
