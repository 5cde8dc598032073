"""Fixes never make a file worse.

Every fix (preferred or not) of every finding on every program at hand
(:func:`robustness_support.corpus`: examples, ../shared/cases when present, the rules'
examples) passes :func:`fix_checks.check_fix`: it applies inside the text, parses,
changes nothing outside its edits, and the finding is gone. Then ``gradguard check
--fix`` on files: the result is the preferred fixes applied round after round (nothing
else changed), a second run changes nothing, CRLF files keep CRLF and BOM files their
BOM, writes go through a temporary file and ``os.replace`` (new inode, same mode, no
temporary file left, the original intact when the replace fails), and files that do not
parse (before or after fixing) are never touched.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from fix_checks import apply_independently, check_fix
from gradguard.analysis import analyze
from gradguard.analysis.model import (Edit, FileResult, Finding, Fix, Message, Span)
from gradguard.fixes import compatible_fixes
from robustness_support import assert_no_traceback, cli_in_process, corpus, run_cli

PROGRAMS = corpus()
FIXABLE = [(name, text) for name, text in PROGRAMS
           if any(f.fixes for f in analyze(text).findings)]
PREFERRED = [(name, text) for name, text in FIXABLE
             if any(f.preferred_fix for f in analyze(text).findings)]

# programs whose fixes are known to fail the checks (an engine bug): name -> the bug,
# run as strict xfails so that the entry goes with the fix
KNOWN: dict[str, str] = {}


def _known(programs):
    return [pytest.param(name, text, id=name, marks=pytest.mark.xfail(strict=True,
                                                                      reason=KNOWN[name]))
            if name in KNOWN else pytest.param(name, text, id=name) for name, text in programs]


def test_the_corpus_has_fixes():
    assert len(PREFERRED) >= 3
    assert {"examples/actor_critic.py", "examples/char_rnn.py",
            "examples/dcgan.py"} <= {name for name, _ in FIXABLE}


@pytest.mark.parametrize("name, text", _known(FIXABLE))
def test_every_fix_is_safe(name, text):
    for finding in analyze(text).findings:
        for fix in finding.fixes:
            check_fix(text, finding, fix)


def expected_after_fix(text: str, rounds: int = 3) -> str:
    """What ``--fix`` must write: the compatible preferred fixes applied (by this test's
    own applier), re-analysed and applied again, until none is left (or ``rounds``)."""
    for _ in range(rounds):
        chosen = compatible_fixes([f.preferred_fix for f in analyze(text).findings
                                   if f.preferred_fix])
        if not chosen:
            break
        text = apply_independently(text, [e for fix in chosen for e in fix.edits])
    return text


VARIANTS = {
    "lf": lambda t: t.encode("utf-8"),
    "crlf": lambda t: t.replace("\n", "\r\n").encode("utf-8"),
    "bom": lambda t: b"\xef\xbb\xbf" + t.encode("utf-8"),
    "bom-crlf": lambda t: b"\xef\xbb\xbf" + t.replace("\n", "\r\n").encode("utf-8"),
}


def _slug(name: str) -> str:
    return name.replace("/", "_").replace(".py", "")


def test_fix_tree_exact_idempotent_and_keeps_line_endings_and_bom(tmp_path):
    """One ``--fix`` run over every fixable program in four encodings of line endings
    and BOM: each file becomes exactly the expected text in its own style; a second run
    changes no byte and rewrites no file."""
    expected = {}
    for name, text in PREFERRED:
        fixed = expected_after_fix(text)
        assert fixed != text, name
        for variant, encode in VARIANTS.items():
            path = tmp_path / variant / f"{_slug(name)}.py"
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(encode(text))
            expected[path] = encode(fixed)
    first = run_cli("check", "--fix", ".", cwd=tmp_path)
    assert_no_traceback(first.stdout, first.stderr)
    assert first.stderr == ""
    for path, data in expected.items():
        assert path.read_bytes() == data, path
    fixed_lines = [line for line in first.stdout.splitlines() if ": fixed " in line]
    assert len(fixed_lines) == len(expected)

    before = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in expected}
    second = run_cli("check", "--fix", ".", cwd=tmp_path)
    assert_no_traceback(second.stdout, second.stderr)
    assert [line for line in second.stdout.splitlines() if ": fixed " in line] == []
    for path, data in expected.items():
        assert path.read_bytes() == data, path
        assert (path.stat().st_ino, path.stat().st_mtime_ns) == before[path], path


def test_fix_keeps_lone_cr_line_endings(tmp_path):
    for name, text in PREFERRED:
        path = tmp_path / f"{_slug(name)}.py"
        path.write_bytes(text.replace("\n", "\r").encode("utf-8"))
    proc = run_cli("check", "--fix", "-q", ".", cwd=tmp_path)
    assert_no_traceback(proc.stdout, proc.stderr)
    for name, text in PREFERRED:
        path = tmp_path / f"{_slug(name)}.py"
        assert path.read_bytes() == expected_after_fix(text).replace("\n", "\r").encode(), name


@pytest.fixture
def char_rnn(tmp_path, monkeypatch):
    """examples/char_rnn.py in an empty folder (the current directory), mode 0o640."""
    monkeypatch.chdir(tmp_path)
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    text = next(t for n, t in FIXABLE if n == "examples/char_rnn.py")
    path = tmp_path / "train.py"
    path.write_text(text, encoding="utf-8")
    path.chmod(0o640)
    return path


def test_fix_writes_through_a_temporary_file_and_os_replace(char_rnn, monkeypatch):
    text = char_rnn.read_text(encoding="utf-8")
    inode = char_rnn.stat().st_ino
    calls = []
    real_replace = os.replace

    def replace(src, dst, *args, **kwargs):
        calls.append((str(src), str(dst), Path(src).read_bytes()))
        assert char_rnn.read_text(encoding="utf-8") == text, "the original was written to"
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    code, out, err = cli_in_process("check", "--fix", "-j", "1", "train.py")
    assert (code, out, err) == (0, "train.py: fixed 1 finding (GG102)\nAll checks passed.\n", "")
    # (the result cache writes its entries through os.replace too, in its own folder)
    [(src, dst, data)] = [c for c in calls if Path(c[1]).parent == char_rnn.parent]
    assert dst == str(char_rnn) and Path(src).parent == char_rnn.parent
    assert Path(src).name.startswith(".gradguard-")
    assert data == expected_after_fix(text).encode("utf-8") == char_rnn.read_bytes()
    assert char_rnn.stat().st_ino != inode
    assert stat.S_IMODE(char_rnn.stat().st_mode) == 0o640
    assert sorted(p.name for p in char_rnn.parent.iterdir()) == ["train.py"]


def test_failed_replace_leaves_the_original_and_no_temporary_file(char_rnn, monkeypatch):
    original = char_rnn.read_bytes()

    def replace(src, dst, *args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(os, "replace", replace)
    code, out, err = cli_in_process("check", "--fix", "-j", "1", "train.py")
    assert_no_traceback(out, err)
    assert code == 1
    assert "train.py: error: cannot write the fixed file: Read-only file system" in out
    assert char_rnn.read_bytes() == original
    assert sorted(p.name for p in char_rnn.parent.iterdir()) == ["train.py"]


@pytest.mark.parametrize("content", [
    b'print "x"\nloss.backward()\nloss.backward()\n',
    b"x = (\n",
    b'x = "\xff"\n',
    b"x = 1\x00\n",
], ids=["python 2", "unclosed bracket", "not utf-8", "NUL byte"])
def test_fix_never_touches_a_file_that_does_not_parse(tmp_path, content):
    path = tmp_path / "broken.py"
    path.write_bytes(content)
    before = (path.stat().st_ino, path.stat().st_mtime_ns)
    proc = run_cli("check", "--fix", "broken.py", cwd=tmp_path)
    assert_no_traceback(proc.stdout, proc.stderr)
    assert proc.returncode == 2
    assert path.read_bytes() == content
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == before


def test_fix_never_writes_a_fixed_text_that_does_not_parse(char_rnn, monkeypatch):
    """An engine whose fix would break the syntax: the file is left alone, the run says
    why and exits 2 (an internal error)."""
    original = char_rnn.read_bytes()

    def breaking(text: str, imports=None) -> FileResult:
        if "((" in text:
            return FileResult(syntax_error=analyze("((").syntax_error)
        return FileResult(findings=(Finding("GG101", Span.of(1, 0, 1, 1), Message("boom"),
                                            fixes=(Fix(Message("break it"),
                                                       (Edit(Span.of(1, 0, 1, 0), "(("),),
                                                       preferred=True),)),))

    monkeypatch.setattr("gradguard.analysis.analyze", breaking)
    code, out, err = cli_in_process("check", "--fix", "-j", "1", "train.py")
    assert "Traceback" not in out + err
    assert code == 2
    [line, summary] = out.splitlines()
    assert line.startswith("train.py:1:")
    assert ": internal error: the fixed text does not parse (" in line
    assert line.endswith("); the file was left unchanged")
    assert summary == "1 file could not be checked."
    assert char_rnn.read_bytes() == original
    assert sorted(p.name for p in char_rnn.parent.iterdir()) == ["train.py"]
