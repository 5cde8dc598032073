"""The pre-commit hooks (.pre-commit-hooks.yaml) run as a user's pre-commit runs them:
``pre-commit try-repo`` installs this repository into a hook environment (pip, from
the package index) and runs the hook on a scratch repository's files."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                                reason="needs git and this repository's history")

HAZARD = """import torch

w = torch.randn(3, requires_grad=True)
h = torch.zeros(3)
for _ in range(3):
    h = torch.tanh(h * w)
    h.sum().backward()
"""


def _try_repo(scratch: Path, hook: str, *files: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), hook,
                           "--files", *files], cwd=scratch, capture_output=True, text=True,
                          timeout=900, env={"PATH": "/usr/bin:/bin", "HOME": str(scratch),
                                            "PRE_COMMIT_HOME": str(scratch / ".cache")})


def test_the_hooks_check_and_fix_a_scratch_repository(tmp_path):
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "train.py").write_text(HAZARD)
    (tmp_path / "clean.py").write_text("x = 1\n")
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    check = _try_repo(tmp_path, "gradguard", "train.py", "clean.py")
    assert check.returncode == 1, check.stdout + check.stderr
    assert "train.py:7:5: GG102 [graph-carried-across-iterations]" in check.stdout
    clean = _try_repo(tmp_path, "gradguard", "clean.py")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    fix = _try_repo(tmp_path, "gradguard-fix", "train.py")
    assert fix.returncode == 1  # pre-commit fails a hook that changed files
    fixed = (tmp_path / "train.py").read_text()
    assert fixed != HAZARD and "detach()" in fixed
