"""Programs written for this suite (tests/programs): the buggy ones fail under torch and are
found at the failing line; the clean ones (common, correct training patterns) run and stay
silent."""

import subprocess
import sys
from pathlib import Path

import pytest

from gradguard.analysis import analyze

HERE = Path(__file__).resolve().parent / "programs"

BUGGY = {
    "buggy_attr_hidden.py": ("GG102", 23, "Trying to backward through the graph a second time"),
    "buggy_memory_bank.py": ("GG102", 13, "Trying to backward through the graph a second time"),
    "buggy_accelerate_twice.py": ("GG101", 18,
                                  "Trying to backward through the graph a second time"),
    "buggy_baseline_running_average.py": ("GG102", 12,
                                          "Trying to backward through the graph a second time"),
    "buggy_shared_encoder_two_heads.py": ("GG101", 16,
                                          "Trying to backward through the graph a second time"),
}
CLEAN = sorted(p.name for p in HERE.glob("clean_*.py"))


def _run(name: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, name], cwd=HERE, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.parametrize("name", sorted(BUGGY))
def test_buggy_program_found_at_failing_line(name):
    code, line, _ = BUGGY[name]
    found = [(f.code, f.span.start.line) for f in analyze((HERE / name).read_text()).findings]
    assert (code, line) in found, found


@pytest.mark.parametrize("name", CLEAN)
def test_clean_program_is_silent(name):
    assert analyze((HERE / name).read_text()).findings == ()


@pytest.mark.parametrize("name", sorted(BUGGY))
def test_buggy_program_really_fails(name):
    pytest.importorskip("torch")
    assert BUGGY[name][2] in _run(name).stderr


@pytest.mark.parametrize("name", CLEAN)
def test_clean_program_really_runs(name):
    pytest.importorskip("torch")
    result = _run(name)
    assert result.returncode == 0, result.stderr[-2000:]
