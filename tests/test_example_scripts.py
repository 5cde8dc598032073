"""The bundled examples fail under torch as documented, and run after `gradguard check --fix`."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))

torch = pytest.importorskip("torch", reason="torch (a test dependency) labels the examples")


def _run(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          timeout=300, cwd=path.parent)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_example_fails_then_fix_makes_it_run(example, tmp_path):
    copy = tmp_path / example.name
    shutil.copy(example, copy)
    before = _run(copy)
    assert before.returncode != 0
    assert "Trying to backward through the graph a second time" in before.stderr

    fix = subprocess.run([sys.executable, "-m", "gradguard", "check", "--fix", str(copy)],
                         capture_output=True, text=True, timeout=120)
    assert fix.returncode == 0, fix.stdout + fix.stderr
    after = _run(copy)
    assert after.returncode == 0, after.stderr[-2000:]
    assert after.stdout.strip(), "the example prints its training progress"
