"""The benchmarks' file shapes (bench/training_code.py) are what their names say, and
the latency benchmark edits the statements it says it edits (bench/lsp_latency.py)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from lsp_latency import edit_lines, statement_ends  # noqa: E402
from training_code import (PROGRAMS, one_class_file, programs, scripts_file,  # noqa: E402
                           training_file)

LONGEST = max(text.count("\n") for text in programs(PROGRAMS))


@pytest.mark.parametrize("make", [
    training_file, scripts_file, lambda n: scripts_file(n, guarded=True), one_class_file])
def test_a_shape_has_the_lines_asked_for_parses_and_is_the_same_every_time(make):
    text = make(1000)
    ast.parse(text)
    # at least the lines asked for, at most one more program (a guarded one grows by its
    # main(): the def, the guard and the call; a class adds its imports and trailer)
    assert 1000 <= text.count("\n") <= 1000 + LONGEST + 40
    assert make(1000) == text


def test_scripts_run_their_loops_at_module_level():
    body = ast.parse(scripts_file(1000)).body
    assert any(isinstance(s, ast.For) for s in body)
    assert not any(isinstance(s, ast.If) and "__main__" in ast.unparse(s.test) for s in body)


def test_guarded_scripts_keep_module_level_code_in_main_behind_the_guard():
    body = ast.parse(scripts_file(1000, guarded=True)).body
    kinds = {type(s) for s in body}
    assert kinds == {ast.Expr, ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.If}
    mains = [s.name for s in body if isinstance(s, ast.FunctionDef) and s.name.startswith("main_")]
    guards = [s for s in body if isinstance(s, ast.If)]
    assert [ast.unparse(s) for s in guards] == [
        f"if __name__ == '__main__':\n    {name}()" for name in mains]
    assert mains == [f"main_{n}" for n in range(len(mains))]
    # every module-level statement other than a docstring is an import, def, class or guard
    assert all(isinstance(s.value, ast.Constant) for s in body if isinstance(s, ast.Expr))


def test_one_class_holds_the_functions_as_methods_between_imports_and_a_statement():
    text = one_class_file(1000)
    body = ast.parse(text).body
    *imports, cls, trailer = body
    assert all(isinstance(s, (ast.Import, ast.ImportFrom)) for s in imports)
    assert len({ast.unparse(s) for s in imports}) == len(imports)
    assert ast.unparse(trailer) == "trainer = Trainer()"
    assert isinstance(cls, ast.ClassDef) and cls.name == "Trainer"
    assert cls.end_lineno - cls.lineno + 1 >= 1000 - len(imports) - 4
    methods = cls.body
    assert all(isinstance(m, ast.FunctionDef) and m.args.args[0].arg == "self" for m in methods)
    assert len({m.name for m in methods}) == len(methods)
    assert "self.make_generator_2()" in text and "def make_generator_2(self):" in text


SAMPLE = '''import torch
x = 1
def f():
    """doc"""
    y = 2
    def g():
        return y
class C:
    z = 3
    def m(self):
        return 1
for i in range(3):
    print(i)
'''


def test_edit_positions_are_statement_ends_by_where_they_stand():
    assert statement_ends(SAMPLE) == {"function": [4, 6], "method": [10], "module": [0, 1, 12]}
    assert edit_lines(SAMPLE) == {"function": 6, "method": 10, "module": 1}
    assert edit_lines("def f():\n    return 1\n") == {"function": 1, "method": None,
                                                     "module": None}
