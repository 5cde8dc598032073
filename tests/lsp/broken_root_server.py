"""The real GradGuard server and engine with one root broken: the interpreter raises when
it runs a function named ``train`` alone (as a bug in it would). Every other function,
and the module body, is analysed as shipped."""

from gradguard.analysis.interp import Interpreter
from gradguard.lsp import server

_run_function = Interpreter.run_function


def broken_run_function(self, func, *args, **kwargs):
    if func.name.value == "train":
        raise AttributeError("'NoneType' object has no attribute 'segs'")
    return _run_function(self, func, *args, **kwargs)


Interpreter.run_function = broken_run_function

if __name__ == "__main__":
    server.build_server().start_io()
