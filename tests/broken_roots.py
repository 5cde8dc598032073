"""A program with a GG101 in each of two functions, and the fault that makes the
interpreter raise when it runs one function alone (as a bug in it would): shared by the
CLI, incremental-engine and language-server tests of internal errors
(tests/lsp/broken_root_server.py plants the same fault in a real server process)."""

BROKEN_ROOT = '''import torch


def train(model, opt, data):
    for x, y in data:
        model.train(); loss = model(x).sum()
        loss.backward()
        loss.backward()


class Trainer:
    def step(self, model, x):
        model.train(); loss = model(x).sum()
        loss.backward()
        loss.backward()
'''
"""GG101 in ``train`` (line 8) and in ``Trainer.step`` (line 15)."""


def break_root(monkeypatch, name: str, error: Exception) -> None:
    """Make ``Interpreter.run_function`` raise ``error`` for the function ``name``."""
    from gradguard.analysis.interp import Interpreter

    run_function = Interpreter.run_function

    def broken(self, func, *args, **kwargs):
        if func.name.value == name:
            raise error
        return run_function(self, func, *args, **kwargs)
    monkeypatch.setattr(Interpreter, "run_function", broken)
