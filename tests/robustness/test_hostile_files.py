"""Hostile files: the engine (``gradguard.analysis.analyze``) and the CLI
(``python -m gradguard check``) never crash and never lie on them.

Each hostile input gets an exact expectation: a :class:`FileResult` (findings or a
``syntax_error``), or the exact line the CLI prints and the exit status README.md
documents (0 clean, 1 findings or files that could not be checked, 2 when nothing could
be checked). No timed assertions: the big inputs only have to finish.
"""

from __future__ import annotations

import ast
import json
import os
import socket
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from gradguard.analysis import analyze
from gradguard.analysis.model import FileResult, Pos, SyntaxProblem
from robustness_support import (EXAMPLES, analyze_isolated, assert_no_traceback, clean_env,
                                corpus, run_cli, shape)

EXAMPLE_TEXTS = [p.read_text(encoding="utf-8") for p in EXAMPLES]
CHAR_RNN = (Path(EXAMPLES[0]).parent / "char_rnn.py").read_text(encoding="utf-8")
TOO_DEEP = SyntaxProblem(Pos(1, 0), "too deeply nested to analyse")


def starts(result: FileResult) -> list[tuple[str, int, int]]:
    return [(f.code, f.span.start.line, f.span.start.column) for f in result.findings]


# ------------------------------------------------------------------ the engine


def test_50000_line_file_through_the_cli(tmp_path):
    """The examples repeated to 50,000 lines: every copy's findings, at its own lines
    (checked through ``gradguard check --format json``, which runs ``analyze``)."""
    alone = [starts(analyze(text)) for text in EXAMPLE_TEXTS]
    assert all(alone), "every example has a finding"
    parts, expected, lines = [], [], 0
    while lines < 50_000:
        k = len(parts) % len(EXAMPLE_TEXTS)
        expected += [(code, line + lines, column + 1) for code, line, column in alone[k]]
        parts.append(EXAMPLE_TEXTS[k])
        lines += EXAMPLE_TEXTS[k].count("\n")
    path = tmp_path / "big.py"
    path.write_text("".join(parts), encoding="utf-8")
    proc = run_cli("check", "--format", "json", "-j", "1", path)
    assert_no_traceback(proc.stderr)
    assert (proc.returncode, proc.stderr) == (1, "")
    found = [(d["code"], d["location"]["row"], d["location"]["column"])
             for d in json.loads(proc.stdout)]
    assert sorted(found) == sorted(expected)
    assert len(found) == len(parts) == 1042


DEEP = {
    "parentheses": lambda n: "(" * n + "x" + ")" * n,
    "lists": lambda n: "[" * n + "]" * n,
    "dicts": lambda n: "{1: " * n + "1" + "}" * n,
    "calls": lambda n: "f(" * n + ")" * n,
    "call chain": lambda n: "f" + "()" * n,
    "attributes": lambda n: "a" + ".b" * n,
    "subscripts": lambda n: "a" + "[0]" * n,
    "binary operators": lambda n: " + ".join(["a"] * n),
    "powers": lambda n: " ** ".join(["a"] * n),
    "unary minus": lambda n: "-" * n + "a",
    "not": lambda n: "not " * n + "a",
    "conditional expressions": lambda n: "a if b else " * n + "c",
    "lambdas": lambda n: "lambda: " * n + "1",
    "boolean operators": lambda n: " and ".join(["a"] * n),
    "comparisons": lambda n: " < ".join(["a"] * n),
}


CHAR_RNN_FINDINGS = [["GG102", 39, 12]]


@pytest.mark.parametrize("form", DEEP, ids=list(DEEP))
def test_1000_deep_expression(form):
    """1,000-deep nesting next to a training loop: either the whole file is "too deeply
    nested to analyse", or the loop's finding is there; never a RecursionError (run in
    a child process: see the crash tests below)."""
    code, result, err = analyze_isolated(CHAR_RNN + "\nDEEP = " + DEEP[form](1000) + "\n")
    assert (code, err) == (0, "")
    assert result["errors"] == []
    if result["syntax_error"] is not None:
        assert result == {"syntax_error": [1, 0, TOO_DEEP.message], "findings": [],
                          "errors": []}
    else:
        assert result["findings"] == CHAR_RNN_FINDINGS


CRASHING = {
    "1,300 unclosed parentheses": "(" * 1300 + "\n",
    "1,300 nested lists": "x = " + "[" * 1300 + "]" * 1300 + "\n",
    "1,300 nested parentheses": "x = " + "(" * 1300 + "1" + ")" * 1300 + "\n",
}
"""(A 10,000-term sum or 10,000-attribute chain crashes the same way, after a minute.)"""


@pytest.mark.parametrize("form", CRASHING, ids=list(CRASHING))
def test_native_parser_stack_overflow(form):
    code, result, err = analyze_isolated(CRASHING[form])
    assert (code, err) == (0, "")
    assert result["syntax_error"] is not None and result["findings"] == []


def _nested(head: str, depth: int, body: list[str]) -> str:
    lines = ["import torch", "", "def train(model, x):"]
    for i in range(depth):
        lines.append("    " * (i + 1) + head)
    lines += ["    " * (depth + 1) + b for b in body]
    return "\n".join(lines) + "\n"


def test_1000_deep_blocks_are_a_clear_syntax_error():
    text = _nested("if x:", 1000, ["loss = model(x).sum()", "loss.backward()"])
    assert analyze(text) == FileResult(syntax_error=_cpython(text))
    assert _cpython(text).message == "too many levels of indentation"


@pytest.mark.parametrize("head, depth", [
    ("if x:", 98), ("with x:", 98), ("try:", 98),
    # loops: 8 deep only; deeper ones take exponential time (8 deep: 0.1 s, 12: 9 s,
    # 16: 2 minutes), a bug reported to the lead (each loop runs its body twice per pass
    # of the enclosing loop; MAX_STEPS bounds steps, not the growing cost of state joins)
    ("for step in range(3):", 8), ("while x:", 8)])
def test_deep_blocks_python_accepts(head, depth):
    """Nested blocks around a double backward (CPython accepts up to 100 indentation
    levels): found, or too deeply nested; never a RecursionError."""
    body = ["model.train(); loss = model(x).sum()", "loss.backward()", "loss.backward()"]
    text = _nested(head, depth, body)
    if head == "try:":
        lines = text.splitlines()
        for level in range(depth, 0, -1):
            lines += ["    " * level + "finally:", "    " * (level + 1) + "pass"]
        text = "\n".join(lines) + "\n"
    result = analyze(text)
    assert result.errors == ()
    if result.syntax_error is not None:
        assert (result.syntax_error, result.findings) == (TOO_DEEP, ())
    else:
        assert starts(result) == [("GG101", depth + 6, (depth + 1) * 4)]


SMALL = {
    "empty": ("", FileResult()),
    "byte-order mark only": ("\ufeff", FileResult()),
    "byte-order mark and a line break": ("\ufeff\n", FileResult()),
    "only line breaks": ("\n\r\n\r", FileResult()),
    "only a form feed": ("\x0c", FileResult()),
    # (a text CPython rejects: CPython's own message and place, see _cpython)
    "NUL byte": ("x = 1\x00\nloss.backward()\n", None),
    "Python 2 backticks": ("x = `1`\n", None),
    "Python 2 octal": ("x = 0777\n", None),
    "tabs and spaces mixed": ("if x:\n\tpass\n        pass\n", None),
    "unterminated triple quote": ("\'\'\'", None),
    "trailing line continuation": ("\\\n", None),
}


@pytest.mark.parametrize("name", SMALL, ids=list(SMALL))
def test_small_hostile_text(name):
    text, expected = SMALL[name]
    assert analyze(text) == (expected or FileResult(syntax_error=_cpython(text)))


def _cpython(text: str) -> SyntaxProblem:
    """The syntax error CPython reports for ``text``: its message, line and column."""
    try:
        compile(text, "<text>", "exec", flags=ast.PyCF_ONLY_AST)
    except SyntaxError as e:
        return SyntaxProblem(Pos(e.lineno or 1, (e.offset or 1) - 1), e.msg)  # (NUL: no place)
    raise AssertionError("CPython parses it")


@pytest.mark.parametrize("text", ['print "x"\n', 'exec "code"\n', 'x = ur"a"\n'],
                         ids=["print statement", "exec statement", "ur prefix"])
def test_python_2_syntax_is_a_syntax_error_on_line_1(text):
    result = analyze(text)
    assert result.findings == ()
    assert result.syntax_error.pos.line == 1
    assert 0 <= result.syntax_error.pos.column <= len(text) - 1
    assert result.syntax_error == _cpython(text)  # (Missing parentheses in call to 'print'...)


NEWEST = {
    "match statement": ('''import torch


def train(model, batches, mode):
    for x in batches:
        model.train(); loss = model(x).sum()
        match mode:
            case "twice" | "again":
                loss.backward()
                loss.backward()
            case {"kind": kind, **rest} if kind:
                print(kind, rest)
            case [first, *others]:
                print(first, others)
            case Point(x=0, y=yy):
                print(yy)
            case _:
                pass
''', [("GG101", 10, 16)]),
    "PEP 695 generics": ('''import torch

type Batch[T] = list[T]


class Trainer[M: torch.nn.Module, *Ts, **P]:
    def step[T](self, model: M, x: T) -> T:
        model.train(); loss = model(x).sum()
        loss.backward()
        loss.backward()
        return x


def train[T: (int, str)](model, x: T):
    model.train(); out = model(x)
    out.sum().backward()
    out.mean().backward()
''', [("GG101", 10, 8), ("GG101", 17, 4)]),
    "f-strings of Python 3.12": ('''import torch


def train(model, x, names):
    model.train(); loss = model(x).sum()
    loss.backward()
    print(f"{f"{f"{loss.item():.3f}"}"} {"-".join(names)} {names[0]!r:>{10}}")
    msg = f"{
        loss.item()  # a comment inside the braces
    }"
    loss.backward()
''', [("GG101", 11, 4)]),
    "async, walrus": ('''import torch


async def train(model, loader):
    async for x in loader:
        if model.train() or (loss := model(x).sum()) is not None:
            loss.backward()
            loss.backward()
    async with lock:
        pass
''', [("GG101", 8, 12)]),
}


@pytest.mark.parametrize("name", NEWEST, ids=list(NEWEST))
def test_newest_syntax_is_analysed(name):
    text, expected = NEWEST[name]
    result = analyze(text)
    assert (result.syntax_error, result.errors) == (None, ())
    assert starts(result) == expected


def test_very_long_lines():
    """A 1,000,000-character string and a 300,000-emoji comment (astral characters)
    above a training loop: its finding, two lines down, same columns."""
    expected = shape(analyze(CHAR_RNN))
    text = 'S = "' + "a" * 1_000_000 + '"\n# ' + "\U0001F600" * 300_000 + "\n" + CHAR_RNN
    assert shape(analyze(text), shift=2) == expected


PROGRAMS = [(name, text) for name, text in corpus() if analyze(text).findings]


def test_crlf_files_give_the_same_findings_and_fixes():
    for name, text in PROGRAMS:
        assert shape(analyze(text.replace("\n", "\r\n"))) == shape(analyze(text)), name


def test_lone_cr_files_give_the_same_findings_and_fixes():
    for name, text in PROGRAMS:
        assert shape(analyze(text.replace("\n", "\r"))) == shape(analyze(text)), name


LOOKALIKES = {
    "form feed line": "\x0c\n",
    "form feed in a comment": "# page\x0cbreak\n",
    "vertical tab in a comment": "# \x0b\n",
    "file/group/record separators in a comment": "# \x1c\x1d\x1e\n",
    "NEL in a comment": "x = 1  # \x85\n",
    "line separator in a string": "s = '\u2028'\n",
    "paragraph separator in a comment": "# \u2029\n",
}


@pytest.mark.parametrize("prefix", LOOKALIKES.values(), ids=list(LOOKALIKES))
def test_line_break_lookalikes_do_not_move_findings_or_fixes(prefix):
    """A line holding a character that str.splitlines() takes for a line break (but
    Python does not) changes nothing but the line numbers below it."""
    for name, text in PROGRAMS:
        assert shape(analyze(prefix + text), shift=1) == shape(analyze(text)), name


# ------------------------------------------------------------------ the CLI


def _tree(root: Path) -> None:
    """A folder of hostile files next to one good training script."""
    (root / "good.py").write_text(CHAR_RNN, encoding="utf-8")
    (root / "latin.py").write_bytes(b'x = "\xff\xfe"\n')
    (root / "nul.py").write_bytes(b"x = 1\x00\n")
    (root / "empty.py").write_bytes(b"")
    (root / "bom.py").write_bytes(b"\xef\xbb\xbf")
    (root / "py2.py").write_bytes(b'print "x"\n')
    (root / "cookie.py").write_bytes(b"# -*- coding: klingon -*-\n")
    (root / "latin1.py").write_bytes(b'# -*- coding: latin-1 -*-\nx = "\xe9"\n')
    (root / "deep.py").write_text("loss.backward()\nx = " + " + ".join(["a"] * 1000) + "\n")
    (root / "deepblock.py").write_text(_nested("if x:", 1000, ["pass"]))
    (root / "loop").mkdir()
    (root / "loop" / "up").symlink_to("..")
    (root / "a").mkdir()
    (root / "b").mkdir()
    (root / "a" / "to_b").symlink_to("../b")
    (root / "b" / "to_a").symlink_to("../a")
    (root / "dangling.py").symlink_to("nowhere.py")
    (root / "self.py").symlink_to("self.py")
    (root / "folder.py").mkdir()
    (root / "folder.py" / "inner.py").write_text("x = 1\n")


TREE_OUTPUT = """\
a/to_b/to_a: error: symbolic link loop, skipped
b/to_a/to_b: error: symbolic link loop, skipped
cookie.py:1:1: error: cannot decode: unknown encoding: klingon
dangling.py: error: cannot read: No such file or directory
deep.py:1:1: syntax error: too deeply nested to analyse
deepblock.py:103:1: syntax error: too many levels of indentation
good.py:39:13: GG102 [graph-carried-across-iterations] `loss` reaches the previous iteration's graph through `hidden`, which the backward on line 39 freed in that iteration
    good.py:36:13: graph of `hidden` built here
    good.py:39:13: this backward freed it
    fix: Detach `hidden` after the backward on line 39, so the next iteration starts a new graph
latin.py:1:1: error: cannot decode: 'utf-8' codec can't decode byte 0xff in position 5: invalid start byte
loop/up: error: symbolic link loop, skipped
nul.py:1:1: syntax error: source code string cannot contain null bytes
py2.py:1:1: syntax error: Missing parentheses in call to 'print'. Did you mean print(...)?
self.py: error: cannot read: Too many levels of symbolic links
Found 1 finding.
1 of them can be fixed with --fix.
11 files could not be checked.
"""


def test_cli_walks_a_hostile_tree(tmp_path):
    """Every hostile file gets one clear line, the good file its finding, exit 1."""
    _tree(tmp_path)
    proc = run_cli("check", "-j", "2", ".", cwd=tmp_path)
    assert_no_traceback(proc.stdout, proc.stderr)
    assert (proc.returncode, proc.stderr) == (1, "")
    assert sorted(proc.stdout.splitlines()[:-3]) == sorted(TREE_OUTPUT.splitlines()[:-3])
    assert proc.stdout.splitlines()[-3:] == TREE_OUTPUT.splitlines()[-3:]


SINGLE = {
    "empty.py": (0, "All checks passed.\n"),
    "bom.py": (0, "All checks passed.\n"),
    "latin1.py": (0, "All checks passed.\n"),
    "nul.py": (2, None),
    "py2.py": (2, None),
    "latin.py": (2, None),
    "cookie.py": (2, None),
    "deep.py": (2, None),
    "deepblock.py": (2, None),
    "dangling.py": (2, None),
    "self.py": (2, None),
}


@pytest.mark.parametrize("name", SINGLE, ids=list(SINGLE))
def test_cli_on_one_hostile_file(tmp_path, name):
    """Alone, a file that cannot be checked is exit 2 ("nothing could be checked")
    with its line and the count; a clean one exit 0."""
    _tree(tmp_path)
    code, out = SINGLE[name]
    if out is None:
        line = next(x for x in TREE_OUTPUT.splitlines() if x.startswith(name + ":"))
        out = f"{line}\n1 file could not be checked.\n"
    proc = run_cli("check", name, cwd=tmp_path)
    assert_no_traceback(proc.stdout, proc.stderr)
    assert (proc.returncode, proc.stdout, proc.stderr) == (code, out, "")


def test_cli_on_a_socket_named_py(tmp_path):
    (tmp_path / "good.py").write_text(CHAR_RNN, encoding="utf-8")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "sock.py"))
        proc = run_cli("check", "-q", ".", cwd=tmp_path)
    finally:
        sock.close()
    assert_no_traceback(proc.stdout, proc.stderr)
    assert proc.returncode == 1
    assert "sock.py: error: cannot read: No such device or address" in proc.stdout.splitlines()
    assert proc.stdout.startswith("good.py:39:13: GG102 ")


def test_cli_on_a_fifo_named_py(tmp_path):
    (tmp_path / "good.py").write_text(CHAR_RNN, encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.py")
    proc = run_cli("check", "-q", ".", cwd=tmp_path, timeout=30)
    assert_no_traceback(proc.stdout, proc.stderr)
    assert proc.returncode == 1
    assert proc.stdout.startswith("good.py:39:13: GG102 ")
    assert "pipe.py" in proc.stdout


def test_cli_on_a_file_whose_read_fails(tmp_path):
    """A file that opens but cannot be read (EIO, as from a bad disk; here a link to
    /proc/self/mem, which fails at offset 0 even for root): its line, the rest checked."""
    (tmp_path / "good.py").write_text(CHAR_RNN, encoding="utf-8")
    (tmp_path / "mem.py").symlink_to("/proc/self/mem")
    proc = run_cli("check", "-q", ".", cwd=tmp_path)
    assert_no_traceback(proc.stdout, proc.stderr)
    assert (proc.returncode, proc.stderr) == (1, "")
    assert "mem.py: error: cannot read: Input/output error" in proc.stdout.splitlines()
    assert proc.stdout.startswith("good.py:39:13: GG102 ")


@pytest.mark.parametrize("copies", [1, 6], ids=["in process", "worker processes"])
def test_cli_survives_a_parser_crash(tmp_path, copies):
    """1,300 nested brackets once killed the process parsing them (libcst's native parser
    overflowed the C stack): with up to 4 files `gradguard check` died with SIGSEGV and
    printed nothing, with more a BrokenProcessPool traceback and no result at all."""
    for i in range(copies):
        (tmp_path / f"good{i}.py").write_text(CHAR_RNN, encoding="utf-8")
    (tmp_path / "parens.py").write_text("x = " + "(" * 1300 + "1" + ")" * 1300 + "\n")
    proc = run_cli("check", "-q", "-j", "2", ".", cwd=tmp_path)
    assert_no_traceback(proc.stdout, proc.stderr)
    assert (proc.returncode, proc.stderr) == (1, "")
    lines = proc.stdout.splitlines()
    assert sum(line.startswith("good") for line in lines) == copies
    assert "parens.py:1:1: syntax error: too deeply nested to analyse" in lines


def _as_nobody() -> dict:
    """subprocess arguments that drop root to uid/gid 65534, so file permissions apply."""
    def drop():
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)
    return {"preexec_fn": drop} if os.geteuid() == 0 else {}


def _runs_as_nobody(cwd: Path) -> str | None:
    """None if this Python runs under :func:`_as_nobody`, else why not."""
    try:
        probe = subprocess.run([sys.executable, "-c", "import gradguard.cli"], cwd=cwd,
                               capture_output=True, env=clean_env(), **_as_nobody())
    except OSError as e:
        return str(e)
    return None if probe.returncode == 0 else probe.stderr.decode(errors="replace")[-200:]


def test_cli_on_unreadable_file_and_folder():
    """chmod 000 on a file and a folder (as root, the CLI runs as uid 65534 for this:
    root reads anything). Each gets its line; the good file is still checked."""
    root = Path(tempfile.mkdtemp(prefix="gg-unreadable-", dir="/tmp"))
    try:
        root.chmod(0o755)
        (root / "good.py").write_text(CHAR_RNN, encoding="utf-8")
        (root / "secret.py").write_text("x = 1\n")
        (root / "secret.py").chmod(0)
        (root / "closed").mkdir()
        (root / "closed" / "inner.py").write_text("x = 1\n")
        (root / "closed").chmod(0)
        why = _runs_as_nobody(root)
        if why is not None:
            pytest.skip(f"running as root, and uid 65534 cannot run {sys.executable} "
                        f"({why.strip()}); root reads files whatever their mode "
                        "(test_cli_on_a_file_whose_read_fails covers a failing read)")
        proc = subprocess.run([sys.executable, "-m", "gradguard", "check", "-q", "."],
                              cwd=root, capture_output=True, text=True, env=clean_env(),
                              timeout=600, **_as_nobody())
    finally:
        for p in (root / "secret.py", root / "closed"):
            p.chmod(stat.S_IRWXU)
        subprocess.run(["rm", "-rf", str(root)], check=True)
    assert_no_traceback(proc.stdout, proc.stderr)
    assert (proc.returncode, proc.stderr) == (1, "")
    lines = proc.stdout.splitlines()
    assert "closed: error: cannot read folder: Permission denied" in lines
    assert "secret.py: error: cannot read: Permission denied" in lines
    assert lines[0].startswith("good.py:39:13: GG102 ")
