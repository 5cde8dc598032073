"""Hostile file names in a CLI tree walk, in every output format: bytes that are not
UTF-8 (Python holds them as surrogate escapes), a line break, spaces. Every format
finishes without a traceback and reports the findings of every file."""

from __future__ import annotations

import json
import os

import pytest

from robustness_support import EXAMPLES, assert_no_traceback, run_cli

CHAR_RNN = (EXAMPLES[0].parent / "char_rnn.py").read_bytes()


@pytest.fixture
def tree(tmp_path):
    os.mkdir(os.path.join(os.fsencode(tmp_path), b"d\xe9j\xe0"))
    with open(os.path.join(os.fsencode(tmp_path), b"d\xe9j\xe0", b"\xff\xfe.py"), "wb") as f:
        f.write(CHAR_RNN)
    (tmp_path / "new\nline.py").write_bytes(CHAR_RNN)
    (tmp_path / "sp ace.py").write_bytes(CHAR_RNN)
    return tmp_path


@pytest.mark.parametrize("fmt", [
    "text", "json", "github", "sarif",
])
def test_every_format_survives_hostile_names(tree, fmt):
    proc = run_cli("check", "--format", fmt, ".", cwd=tree)
    assert_no_traceback(proc.stdout, proc.stderr)
    assert (proc.returncode, proc.stderr) == (1, "")
    if fmt == "json":
        assert len(json.loads(proc.stdout)) == 3
    elif fmt == "sarif":
        # the URIs percent-encode the names' bytes (a name that is not UTF-8 once killed
        # the run with UnicodeEncodeError)
        results = json.loads(proc.stdout)["runs"][0]["results"]
        assert sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                      for r in results) == ["d%E9j%E0/%FF%FE.py", "new%0Aline.py", "sp%20ace.py"]
    else:
        assert proc.stdout.count("GG102") == 3
