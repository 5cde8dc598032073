"""README's install steps work as written: the commands of its Quick start (the ```sh block
between the `<!-- install-test:begin` and `<!-- install-test:end -->` markers) run with bash in
a copy of the repository's files (what a clone has), making a fresh virtual environment there;
what it prints is what this checkout's GradGuard prints for the bundled examples, and the
environment's `gradguard --version` is this GradGuard's."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import gradguard

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"<!-- install-test:begin[^>]*-->\n```sh\n(.*?)```\n<!-- install-test:end -->", re.S)


def readme_commands() -> str:
    blocks = BLOCK.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(blocks) == 1, f"README.md must have one ```sh block between the install-test markers, has {len(blocks)}"
    return blocks[0]


def copy_of_repository(dest: Path) -> None:
    """The files a clone of this checkout has: tracked and new (not ignored) ones, as they are now."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode()
    for name in filter(None, listed.split("\0")):
        src = ROOT / name
        if src.is_file():  # a tracked file deleted in the work tree is not in a clone of it
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def test_readme_quick_start_installs_and_checks_the_examples(tmp_path):
    repo = tmp_path / "gradguard"
    copy_of_repository(repo)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env["GRADGUARD_CACHE_DIR"] = str(tmp_path / "cache")
    ran = subprocess.run(["bash", "-euo", "pipefail", "-c", readme_commands()], cwd=repo, env=env,
                         capture_output=True, text=True, timeout=600)
    expected = subprocess.run([sys.executable, "-m", "gradguard", "check", "--no-cache", "examples/"], cwd=repo,
                              env=env, capture_output=True, text=True, timeout=300)
    assert expected.returncode == 1, expected.stderr  # findings
    for example in sorted((repo / "examples").glob("*.py")):
        assert f"examples/{example.name}:" in expected.stdout, expected.stdout
    assert (ran.returncode, ran.stdout) == (expected.returncode, expected.stdout), ran.stderr
    version = subprocess.run([str(repo / ".venv" / "bin" / "gradguard"), "--version"], capture_output=True, text=True,
                             timeout=60, env=env)
    assert (version.returncode, version.stdout) == (0, f"gradguard {gradguard.__version__}\n")
