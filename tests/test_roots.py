"""Which functions are run alone (roots), and the engine's bookkeeping that makes an
analysis cheap: a function another root's run went through is not run again alone; a
join compares only the bindings two states changed."""

from __future__ import annotations

from gradguard.analysis import analyze
from gradguard.analysis.engine import Engine
from gradguard.analysis.values import SCALAR, Binding, Env, State, Val, join_states

STEP_FIRST = """import torch


def step(x):
    w = torch.ones(2, requires_grad=True)
    loss = (x * w).exp().sum()
    loss.backward()
    loss.backward()


def train():
    for x in [torch.randn(4, 2)]:
        step(x)
"""


def _found(result):
    return [(f.code, f.span.start.line) for f in result.findings]


def test_a_function_another_root_ran_to_its_end_is_not_run_alone():
    """``step`` is defined first but called by ``train``: ``train`` runs first, inlines
    ``step`` with the caller's values, and ``step`` is not run again alone."""
    engine = Engine(incremental=True)
    result = engine.analyze(STEP_FIRST)
    assert _found(result) == [("GG101", 8)]
    assert (engine.last_run["run"], engine.last_run["reused"]) == (1, 0)
    assert result == analyze(STEP_FIRST)
    # a kept result of ``train`` still covers ``step``: nothing runs, nothing is lost
    assert engine.analyze(STEP_FIRST + "\n") == analyze(STEP_FIRST + "\n")
    assert (engine.last_run["run"], engine.last_run["reused"]) == (0, 1)


def test_a_function_no_root_reached_is_run_alone():
    """Once ``train`` no longer calls ``step``, ``step`` is a root of its own again, and
    its hazard is still found."""
    text = STEP_FIRST.replace("        step(x)", "        print(x)")
    engine = Engine(incremental=True)
    engine.analyze(STEP_FIRST)
    result = engine.analyze(text)
    assert _found(result) == [("GG101", 8)]
    # (``train`` names no backward and no function that has one: not a root)
    assert (engine.last_run["run"], engine.last_run["reused"]) == (1, 0)
    assert result == analyze(text)


def test_a_call_the_depth_limit_does_not_follow_does_not_cover_the_function():
    """``train`` calls ``step`` through a chain of eight functions; inlined calls nest
    at most MAX_DEPTH (8) deep, so ``train``'s run stops following the chain at ``f7``,
    which is then run alone (and it, ``step``): the hazard is found there."""
    chain = "".join(f"def f{i}(x):\n    f{i + 1}(x)\n\n\n" for i in range(7))
    text = STEP_FIRST.replace("def train", chain + "def f7(x):\n    step(x)\n\n\ndef train"
                              ).replace("        step(x)", "        f0(x)")
    engine = Engine(incremental=True)
    assert _found(engine.analyze(text)) == [("GG101", 8)]
    assert engine.last_run["run"] == 2  # train, and f7 alone


def _binding(name: str) -> Binding:
    return Binding(Val("scalar", ref=name))


def test_a_join_of_copies_compares_only_the_keys_they_changed():
    base = State({(f"G:mod{i}.py", "name"): _binding(f"m{i}") for i in range(100)})
    base.env[("F1", "x")] = _binding("x0")
    left, right = base.copy(), base.copy()
    left.env[("F1", "x")] = _binding("x1")
    right.env[("F1", "y")] = _binding("y")
    del right.env[("G:mod3.py", "name")]
    assert right.env.changed(left.env) == {("F1", "x"), ("F1", "y"), ("G:mod3.py", "name")}
    joined = join_states([left, right])
    assert joined.env[("F1", "x")].val.ref is None  # "x1" joined with "x0": not known
    assert joined.env[("F1", "x")].val.kind == "scalar"
    assert joined.env[("F1", "y")] == _binding("y")
    assert joined.env[("G:mod3.py", "name")] == _binding("m3")  # kept from the left
    assert len(joined.env) == 102


def test_envs_of_different_origins_are_compared_key_by_key():
    one = Env({("F1", "x"): _binding("a")})
    other = Env({("F1", "x"): _binding("a"), ("F1", "z"): Binding(SCALAR)})
    assert set(one.changed(other)) == {("F1", "x"), ("F1", "z")}
    joined = join_states([State(one), State(other)])
    assert dict(joined.env) == {("F1", "x"): _binding("a"), ("F1", "z"): Binding(SCALAR)}


def test_a_copy_of_an_env_that_changed_much_starts_a_new_origin():
    env = Env({("G", f"n{i}"): _binding(str(i)) for i in range(200)})
    first = env.copy()
    for i in range(100):  # (more than Env.REBASE, and a quarter of the env)
        env[("F1", f"v{i}")] = _binding(str(i))
    second = env.copy()
    assert second.origin is env.origin and second.origin is not first.origin
    assert env.dirty == set() and second.dirty == set()
    assert set(first.changed(second)) == set(second)  # key by key


TWO_METHODS = """import torch
import torch.nn as nn


class Trainer:
    def __init__(self, dim):
        self.net = nn.Linear(dim, 1)
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.1)

    def twice(self, x):
        loss = self.net(x).sum()
        loss.backward()
        loss.backward()

    def stale(self, x):
        out = self.net(x)
        self.opt.zero_grad()
        out.sum().backward()
        self.opt.step()
        out.sum().backward()
"""


def test_a_class_init_is_interpreted_once_for_all_its_method_roots(monkeypatch):
    """``twice`` and ``stale`` both start from a ``Trainer`` whose ``__init__`` ran with
    unknown arguments: it runs once, the second root starts from a copy of what it left,
    and each root's findings are those of its own ``self.net`` and ``self.opt``."""
    from gradguard.analysis.calls import Calls

    runs = []
    instantiate = Calls._instantiate

    def counted(self, info, func, run_init):
        runs.append((info.key, run_init))
        return instantiate(self, info, func, run_init)

    monkeypatch.setattr(Calls, "_instantiate", counted)
    result = analyze(TWO_METHODS)
    assert _found(result) == [("GG101", 13), ("GG101", 20)]
    assert runs.count(("Trainer", True)) == 1
