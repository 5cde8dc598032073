"""The gradguard command: check (walking, reading, exit codes, fixes, formats), rule, lsp."""

import gettext
import importlib.machinery
import json
import os
import stat
import sys
import types

import pytest

from gradguard import cli
from gradguard.rules import all_rules
from broken_roots import BROKEN_ROOT, break_root
from synthetic_findings import fake_analyze


@pytest.fixture
def project(tmp_path, monkeypatch):
    """An empty folder as the current directory, with no locale from the environment."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def synthetic(monkeypatch):
    """Replace the engine by the synthetic one (tests/synthetic_findings.py)."""
    monkeypatch.setattr("gradguard.analysis.analyze", fake_analyze)


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    return path


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_clean_tree_exits_0(project, synthetic, capsys):
    write(project / "a.py", "x = 1\n")
    assert run(capsys, "check", "-j", "1") == (0, "All checks passed.\n", "")


def test_findings_exit_1_with_text_report(project, synthetic, capsys):
    write(project / "pkg" / "train.py", "loss = f(x)\nloss.backward()\nloss.backward()\n")
    write(project / "pkg" / "clean.py", "x = 1\n")
    code, out, err = run(capsys, "check", "-j", "1")
    assert (code, err) == (1, "")
    assert out == (
        "pkg/train.py:2:1: GG101 [backward-through-freed-graph] `loss` is backpropagated after line 1 freed its graph\n"
        "    pkg/train.py:1:1: graph of `loss` built here\n"
        "    fix: Detach `loss`\n"
        "pkg/train.py:3:1: GG101 [backward-through-freed-graph] `loss` is backpropagated after line 1 freed its graph\n"
        "    pkg/train.py:1:1: graph of `loss` built here\n"
        "    fix: Detach `loss`\n"
        "Found 2 findings.\n2 of them can be fixed with --fix.\n")


def test_quiet_drops_the_summary(project, synthetic, capsys):
    write(project / "a.py", "h = cached_h\n")
    assert run(capsys, "check", "-q", "a.py") == (
        1, "a.py:1:5: GG103 [graph-reused-across-iterations] `cached_h` is reused in every iteration\n", "")


def test_json_output_on_stdout_problems_on_stderr(project, synthetic, capsys):
    write(project / "a.py", "loss.backward()\n")
    write(project / "b.py", "SYNTAX\n")
    code, out, err = run(capsys, "check", "--format", "json")
    assert code == 1
    items = json.loads(out)
    assert [(i["filename"], i["code"], i["location"]) for i in items] == [
        (str(project / "a.py"), "GG101", {"row": 1, "column": 1}),
        (str(project / "b.py"), None, {"row": 2, "column": 5})]
    # a syntax error is an entry with a null code, as ruff reports one
    assert (items[1]["kind"], items[1]["message"]) == ("syntax-error",
                                                       "syntax error: unexpected token")
    assert err == "b.py:2:5: syntax error: unexpected token\n"


def test_select_and_ignore_flags(project, synthetic, capsys):
    write(project / "a.py", "loss.backward()\nh = cached_h\n")
    def codes(*flags):
        code, out, _ = run(capsys, "check", "--format", "json", *flags)
        return [i["code"] for i in json.loads(out)]
    assert codes() == ["GG101", "GG103"]
    assert codes("--select", "GG103") == ["GG103"]
    assert codes("--ignore", "backward-through-freed-graph") == ["GG103"]
    assert codes("--select", "GG1", "--ignore", "GG101,GG103") == []


def test_config_is_applied(project, synthetic, capsys):
    write(project / "pyproject.toml", '[tool.gradguard]\nignore = ["GG103"]\n'
          'severity = { GG101 = "warning" }\nper-file-ignores = { "tests/" = ["GG1"] }\n')
    write(project / "a.py", "loss.backward()\nh = cached_h\n")
    write(project / "tests" / "t.py", "loss.backward()\n")
    code, out, _ = run(capsys, "check", "--format", "json")
    assert [(i["code"], i["severity"], i["filename"]) for i in json.loads(out)] == [
        ("GG101", "warning", str(project / "a.py"))]


def test_noqa_comments_are_honoured(project, synthetic, capsys):
    write(project / "a.py", "loss.backward()  # noqa: GG101\n"
                            "loss.backward()  # gradguard: ignore[GG103]\n"
                            "s = 'loss.backward()  # noqa'\n")
    code, out, _ = run(capsys, "check", "--format", "json")
    assert [i["location"]["row"] for i in json.loads(out)] == [2, 3]


def test_bad_config_is_one_line_per_problem_naming_file_and_key(project, synthetic, capsys):
    path = write(project / "pyproject.toml",
                 '[tool.gradguard]\nselect = ["GG101", "nope"]\nignor = []\nlocal = "en"\n')
    write(project / "a.py", "x = 1\n")
    assert run(capsys, "check") == (2, "", (
        f"error: {path}: tool.gradguard.select: unknown rule, code or prefix 'nope'\n"
        f"error: {path}: tool.gradguard.ignor: unknown key (did you mean `ignore`?)\n"
        f"error: {path}: tool.gradguard.local: unknown key (did you mean `locale`?)\n"))


def usage_error(capsys, *argv):
    """The last line argparse prints for a command line it rejects (exit status 2)."""
    with pytest.raises(SystemExit) as info:
        cli.main(list(argv))
    assert info.value.code == 2
    return capsys.readouterr().err.splitlines()[-1]


def test_usage_errors_exit_2(project, capsys):
    assert usage_error(capsys, "check", "--select", "GG9x") == (
        "gradguard check: error: argument --select: unknown rule, code or prefix 'GG9x'")
    assert usage_error(capsys, "check", "-j", "0") == (
        "gradguard check: error: argument -j/--jobs: expected a positive integer, not '0'")
    assert usage_error(capsys, "check", "--format", "xml").startswith(
        "gradguard check: error: argument --format: invalid choice: 'xml'")
    assert usage_error(capsys, "lsp", "--tcp", "--ws") == (
        "gradguard lsp: error: argument --ws: not allowed with argument --tcp")
    assert run(capsys, "check", "--fix", "--diff") == (
        2, "", "error: --fix and --diff cannot be used together\n")
    code, out, err = run(capsys)
    assert (code, out) == (2, "") and err.startswith("usage: gradguard")


def test_syntax_error_alone_exits_2_and_others_are_still_checked(project, synthetic, capsys):
    write(project / "bad.py", "x = (\nSYNTAX\n")
    assert run(capsys, "check", "-q", "bad.py") == (2, "bad.py:2:5: syntax error: unexpected token\n", "")
    write(project / "good.py", "x = 1\n")
    code, out, _ = run(capsys, "check")
    assert (code, out) == (1, "bad.py:2:5: syntax error: unexpected token\n"
                              "1 file could not be checked.\n")


def test_real_engine_syntax_error_has_a_1_based_column(project, capsys):
    write(project / "bad.py", "def f(:\n    pass\n")
    code, out, _ = run(capsys, "check", "-q")
    assert code == 2
    assert out.startswith("bad.py:") and ": syntax error: " in out
    row, col = out.split(":")[1:3]
    assert int(row) >= 1 and int(col) >= 1


def test_missing_path_and_no_files(project, synthetic, capsys):
    assert run(capsys, "check", "-q", "nope.py") == (2, "nope.py: error: no such file or directory\n", "")
    (project / "empty").mkdir()
    assert run(capsys, "check", "empty") == (2, "", "error: no Python files found\n")


def test_non_utf8_file_is_reported_and_skipped(project, synthetic, capsys):
    write(project / "latin.py", b"s = 'caf\xe9'\nloss.backward()\n")
    write(project / "declared.py", b"# -*- coding: latin-1 -*-\ns = 'caf\xe9'\nloss.backward()\n")
    code, out, _ = run(capsys, "check", "-q", "--format", "text")
    assert code == 1
    assert out.splitlines() == [
        "declared.py:3:1: GG101 [backward-through-freed-graph] `loss` is backpropagated after line 1 freed its graph",
        "    declared.py:1:1: graph of `loss` built here",
        "    fix: Detach `loss`",
        "latin.py:1:1: error: cannot decode: 'utf-8' codec can't decode byte 0xe9 in position 8: "
        "invalid continuation byte",
    ]


def test_unknown_coding_cookie(project, synthetic, capsys):
    write(project / "a.py", "# coding: klingon\nx = 1\n")
    assert run(capsys, "check", "-q") == (2, "a.py:1:1: error: cannot decode: unknown encoding: klingon\n", "")


def test_walk_skips_vcs_venvs_builds_and_gitignored(project, synthetic, capsys):
    for rel in (".git/hooks/h.py", ".venv/lib/a.py", "myenv/lib/b.py", "build/c.py",
                "node_modules/d.py", "pkg/__pycache__/e.py", "dist/f.py", "logs/g.py",
                "pkg/gen_model.py", "pkg/keep_gen.py", "pkg/sub/h.py", "pkg/notes.txt"):
        write(project / rel, "loss.backward()\n")
    write(project / "myenv" / "pyvenv.cfg", "home = /usr\n")
    # a package named env (an RL library's environments) is code; a venv named env is not
    write(project / "pkg" / "env" / "wrappers.py", "loss.backward()\n")
    write(project / "env" / "lib" / "i.py", "loss.backward()\n")
    write(project / "env" / "pyvenv.cfg", "home = /usr\n")
    write(project / ".gitignore", "logs/\ngen_*.py\n")
    write(project / "pkg" / ".gitignore", "!keep_gen.py\nsub/\n")
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    code, out, _ = run(capsys, "check", "--format", "json")
    assert sorted(os.path.relpath(i["filename"]) for i in json.loads(out)) == [
        "pkg/env/wrappers.py", "pkg/keep_gen.py"]
    # the parent's .gitignore still applies when a subfolder is checked ...
    code, out, _ = run(capsys, "check", "--format", "json", "pkg")
    assert sorted(os.path.relpath(i["filename"]) for i in json.loads(out)) == [
        "pkg/env/wrappers.py", "pkg/keep_gen.py"]
    # ... and explicitly named files are always checked
    code, out, _ = run(capsys, "check", "--format", "json", "logs/g.py", "build", "pkg/notes.txt")
    assert sorted(os.path.relpath(i["filename"]) for i in json.loads(out)) == [
        "build/c.py", "logs/g.py", "pkg/notes.txt"]


def test_config_exclude_and_extend_exclude(project, synthetic, capsys):
    write(project / "pyproject.toml", '[tool.gradguard]\nextend-exclude = ["legacy/", "old_*.py"]\n')
    for rel in ("legacy/a.py", "src/old_b.py", "src/c.py", "build/d.py"):
        write(project / rel, "loss.backward()\n")
    code, out, _ = run(capsys, "check", "--format", "json")
    assert [os.path.relpath(i["filename"]) for i in json.loads(out)] == ["src/c.py"]


def test_symlink_loop_is_reported_and_the_walk_goes_on(project, synthetic, capsys):
    write(project / "pkg" / "a.py", "loss.backward()\n")
    os.symlink(project / "pkg", project / "pkg" / "loop")
    os.symlink(project / "missing.py", project / "pkg" / "dangling.py")
    code, out, _ = run(capsys, "check", "-q", "--select", "GG101", "pkg")
    assert code == 1
    assert out.splitlines() == [
        "pkg/a.py:1:1: GG101 [backward-through-freed-graph] `loss` is backpropagated after line 1 freed its graph",
        "    pkg/a.py:1:1: graph of `loss` built here",
        "    fix: Detach `loss`",
        "pkg/dangling.py: error: cannot read: No such file or directory",
        "pkg/loop: error: symbolic link loop, skipped",
    ]


def test_parallel_run_is_ordered_by_path(project, capsys):
    # the real engine: syntax errors are reported whatever engine version is installed
    for i in range(12):
        write(project / f"m{i:02d}.py", "def f(:\n")
    code, out, err = run(capsys, "check", "-q", "-j", "2")
    lines = out.splitlines()
    assert code == 2 and err == ""
    assert [line.split(":")[0] for line in lines] == [f"m{i:02d}.py" for i in range(12)]


def test_fix_writes_atomically_keeps_bom_crlf_and_mode_and_is_idempotent(project, synthetic, capsys):
    path = write(project / "train.py", b"\xef\xbb\xbfloss = f(x)\r\nloss.backward()\r\nh = cached_h\r\n")
    os.chmod(path, 0o750)
    untouched = write(project / "clean.py", "x = 1\n")
    broken = write(project / "broken.py", "loss.backward()\nSYNTAX\n")
    before = {p: p.stat().st_mtime_ns for p in (untouched, broken)}
    inode = path.stat().st_ino
    code, out, _ = run(capsys, "check", "--fix", "-j", "1")
    assert code == 1
    assert out == (
        "train.py: fixed 1 finding (GG101)\n"
        "broken.py:2:5: syntax error: unexpected token\n"
        "train.py:3:5: GG103 [graph-reused-across-iterations] `cached_h` is reused in every iteration\n"
        "Found 1 finding.\n1 file could not be checked.\n")
    assert path.read_bytes() == b"\xef\xbb\xbfloss = f(x)\r\nloss.detach().backward()\r\nh = cached_h\r\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o750
    assert path.stat().st_ino != inode  # replaced, not rewritten in place
    assert {p: p.stat().st_mtime_ns for p in (untouched, broken)} == before
    assert broken.read_text() == "loss.backward()\nSYNTAX\n"
    assert sorted(os.listdir(project)) == ["broken.py", "clean.py", "train.py"]
    code, out, _ = run(capsys, "check", "--fix", "-j", "1", "train.py")
    assert (code, out.splitlines()[0]) == (1, "train.py:3:5: GG103 [graph-reused-across-iterations] "
                                              "`cached_h` is reused in every iteration")
    assert path.read_bytes() == b"\xef\xbb\xbfloss = f(x)\r\nloss.detach().backward()\r\nh = cached_h\r\n"


def test_fix_applies_conflicting_fixes_in_later_rounds(project, monkeypatch, capsys):
    from gradguard.analysis.model import Edit, FileResult, Finding, Fix, Message, Span

    def analyze(text, imports=None):  # every "old" is a finding whose fix makes it "new"
        findings = []
        for number, line in enumerate(text.splitlines(), start=1):
            col = line.find("old")
            while col >= 0:
                span = Span.of(number, col, number, col + 3)
                findings.append(Finding("GG101", span, Message("old"), fixes=(
                    Fix(Message("renew"), (Edit(span, "new"),), preferred=True),)))
                col = line.find("old", col + 1)
        return FileResult(tuple(findings))

    monkeypatch.setattr("gradguard.analysis.analyze", analyze)
    path = write(project / "a.py", "x = oldoldold\n")
    assert run(capsys, "check", "--fix", "a.py") == (0, "a.py: fixed 3 findings (GG101)\nAll checks passed.\n", "")
    assert path.read_text() == "x = newnewnew\n"


def test_fix_does_not_apply_again_a_fix_that_left_its_finding(project, monkeypatch, capsys):
    from gradguard.analysis.model import Edit, FileResult, Finding, Fix, Message, Span

    def analyze(text, imports=None):  # the fix adds a line above, and the finding stays
        at = text.splitlines().index("f[i] = f.narrow(0, i - 1, 1) * w") + 1
        return FileResult((Finding("GG202", Span.of(at, 0, at, 4), Message("saved"), fixes=(
            Fix(Message("clone"), (Edit(Span.of(at, 0, at, 0), "f = f.clone()\n"),),
                preferred=True),)),))

    monkeypatch.setattr("gradguard.analysis.analyze", analyze)
    path = write(project / "a.py", "f[i] = f.narrow(0, i - 1, 1) * w\n")
    code, out, _ = run(capsys, "check", "--fix", "a.py")
    assert (code, out.splitlines()[0]) == (1, "a.py: fixed 1 finding (GG202)")
    assert path.read_text() == "f = f.clone()\nf[i] = f.narrow(0, i - 1, 1) * w\n"


def test_fix_does_not_apply_again_a_fix_that_left_its_finding_on_its_own_line(
        project, monkeypatch, capsys):
    from gradguard.analysis.model import Edit, FileResult, Finding, Fix, Message, Span

    def analyze(text, imports=None):  # the fix appends to the line, and the finding stays
        line = text.splitlines()[0]
        end = line.index(" + 1")
        return FileResult((Finding("GG301", Span.of(1, 0, 1, 4), Message("kept"), fixes=(
            Fix(Message("detach"), (Edit(Span.of(1, end, 1, end), ".detach()"),),
                preferred=True),)),))

    monkeypatch.setattr("gradguard.analysis.analyze", analyze)
    path = write(project / "a.py", "mask = w + 1\n")
    code, out, _ = run(capsys, "check", "--fix", "a.py")
    assert (code, out.splitlines()[0]) == (1, "a.py: fixed 1 finding (GG301)")
    assert path.read_text() == "mask = w.detach() + 1\n"


def test_fix_refuses_a_fix_that_breaks_the_syntax(project, monkeypatch, capsys):
    def analyze(text, imports=None):  # the fixed text (with .detach()) does not parse
        return fake_analyze(text + "SYNTAX" if "detach" in text else text)
    monkeypatch.setattr("gradguard.analysis.analyze", analyze)
    path = write(project / "a.py", "loss.backward()\n")
    code, out, _ = run(capsys, "check", "-q", "--fix", "a.py")
    assert code == 2
    assert out == ("a.py:2:5: internal error: the fixed text does not parse (unexpected token); "
                   "the file was left unchanged\n")
    assert path.read_text() == "loss.backward()\n"


def test_diff_prints_and_does_not_write(project, synthetic, capsys):
    path = write(project / "a.py", "loss = f(x)\nloss.backward()\n")
    write(project / "clean.py", "x = 1\n")
    assert run(capsys, "check", "--diff") == (1, (
        "--- a.py\n+++ a.py\n@@ -1,2 +1,2 @@\n loss = f(x)\n-loss.backward()\n"
        "+loss.detach().backward()\n"), "")
    assert path.read_text() == "loss = f(x)\nloss.backward()\n"
    assert run(capsys, "check", "--diff", "clean.py") == (0, "", "")


def test_statistics(project, synthetic, capsys):
    write(project / "a.py", "loss.backward()\nh = cached_h\nloss.backward()\n")
    assert run(capsys, "check", "--statistics") == (
        1, "    2  GG101  backward-through-freed-graph\n"
           "    1  GG103  graph-reused-across-iterations\n", "")


def test_github_format(project, synthetic, capsys):
    write(project / "a.py", "h = cached_h\n")
    assert run(capsys, "check", "--format", "github") == (1, (
        "::error file=a.py,line=1,col=5,endLine=1,endColumn=13,title=GG103::"
        "`cached_h` is reused in every iteration\n"), "")


def test_internal_error_is_reported_with_exit_2(project, monkeypatch, capsys):
    def analyze(text, imports=None):
        raise RuntimeError("engine bug")
    monkeypatch.setattr("gradguard.analysis.analyze", analyze)
    write(project / "a.py", "x = 1\n")
    code, out, _ = run(capsys, "check", "-q")
    assert code == 2
    assert out.startswith("a.py: internal error: Traceback (most recent call last):\n")
    assert out.rstrip().endswith("RuntimeError: engine bug")


class Tagged(gettext.NullTranslations):
    """Marks every translated message with the locale it was asked for."""

    def __init__(self, locale):
        super().__init__()
        self.locale = locale

    def gettext(self, message):
        return f"[{self.locale}] {message}"

    def ngettext(self, singular, plural, n):
        return f"[{self.locale}] " + (singular if n == 1 else plural)


@pytest.mark.parametrize("config, env, flag, locale", [
    ("", {}, [], "en"),
    ("", {"LANG": "zh_CN.UTF-8"}, [], "zh_CN.UTF-8"),
    ('locale = "zh-Hans"', {"LANG": "en_US.UTF-8"}, [], "zh-Hans"),
    ('locale = "zh-Hans"', {}, ["--locale", "de"], "de"),
])
def test_locale_precedence(project, synthetic, monkeypatch, capsys, config, env, flag, locale):
    monkeypatch.setattr(cli, "translator", Tagged)
    monkeypatch.setattr(cli, "default_locale", lambda: os.environ.get("LANG", "en"))
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    write(project / "pyproject.toml", f"[tool.gradguard]\n{config}\n")
    write(project / "a.py", "x = 1\n")
    assert run(capsys, "check", *flag) == (0, f"[{locale}] All checks passed.\n", "")


def test_rule_command(capsys):
    rule = all_rules()[0]
    code, out, _ = run(capsys, "rule", rule.name)
    assert code == 0
    assert out == f"{rule.code} {rule.name} ({rule.severity})\n\n{rule.summary}\n\n{rule.docs}\n\n{rule.url}\n"
    assert run(capsys, "rule", rule.code.lower())[1] == out
    code, out, _ = run(capsys, "rule", "--all")
    assert code == 0
    assert out.splitlines() == [f"{r.code}  {r.name}  ({r.severity})  {r.summary}" for r in all_rules()]
    assert run(capsys, "rule", "GG999") == (2, "", "error: unknown rule 'GG999'\n")
    assert run(capsys, "rule")[0] == 2


def test_lsp_passes_its_options_to_the_server(monkeypatch, capsys):
    seen = []
    server = types.ModuleType("gradguard.lsp.server")
    server.__spec__ = importlib.machinery.ModuleSpec("gradguard.lsp.server", None)
    server.main = lambda args: seen.append((args.tcp, args.ws, args.host, args.port)) or 0
    monkeypatch.setitem(sys.modules, "gradguard.lsp.server", server)
    assert run(capsys, "lsp")[0] == 0
    assert run(capsys, "lsp", "--tcp", "--port", "9000")[0] == 0
    assert run(capsys, "lsp", "--ws", "--host", "0.0.0.0")[0] == 0
    assert seen == [(False, False, "127.0.0.1", 2087), (True, False, "127.0.0.1", 9000),
                    (False, True, "0.0.0.0", 2087)]


def test_lsp_without_the_server_module(monkeypatch, capsys):
    monkeypatch.setattr(cli.importlib.util, "find_spec", lambda name: None)
    assert run(capsys, "lsp") == (
        2, "", "error: the language server is not installed (module gradguard.lsp.server is missing)\n")


TRAIN_ERROR = ("internal error: could not analyse function `train` (AttributeError: "
               "'NoneType' object has no attribute 'segs'); its findings are missing")


@pytest.fixture
def broken_train(monkeypatch):
    """The real engine, with the interpreter raising when it runs function ``train``
    alone (as a bug in it would)."""
    break_root(monkeypatch, "train", AttributeError("'NoneType' object has no attribute 'segs'"))


def test_a_function_that_could_not_be_analysed_is_reported_exit_2(project, broken_train, capsys):
    write(project / "train.py", BROKEN_ROOT)
    for _ in range(2):  # analysed, then from the cache
        code, out, err = run(capsys, "check", "train.py")
        assert (code, err) == (2, "")
        assert out.splitlines()[0] == f"train.py:4:1: {TRAIN_ERROR}"
        assert out.splitlines()[1].startswith("train.py:15:9: GG101 ")  # step's is still there
        assert out.endswith("Found 1 finding.\n1 of them can be fixed with --fix.\n"
                            "1 internal error: some findings are missing.\n")
        assert "All checks passed." not in out


def test_an_internal_error_alone_never_passes(project, broken_train, capsys):
    write(project / "train.py", BROKEN_ROOT.split("\n\nclass")[0] + "\n")
    assert run(capsys, "check", "train.py") == (
        2, f"train.py:4:1: {TRAIN_ERROR}\n1 internal error: some findings are missing.\n", "")
    assert run(capsys, "check", "-q", "--locale", "zh_CN", "train.py") == (
        2, "train.py:4:1: 内部错误：无法分析函数 `train`（AttributeError: 'NoneType' object "
           "has no attribute 'segs'），其中的问题未能报告\n", "")


def test_internal_error_in_json_is_a_record_with_a_null_code(project, broken_train, capsys):
    write(project / "train.py", BROKEN_ROOT)
    code, out, err = run(capsys, "check", "--format", "json", "train.py")
    assert code == 2
    assert err == f"train.py:4:1: {TRAIN_ERROR}\n"
    items = json.loads(out)
    assert items[0] == {
        "code": None,
        "kind": "internal-error",
        "name": None,
        "severity": "error",
        "message": TRAIN_ERROR,
        "filename": str(project / "train.py"),
        "cell": None,
        "location": {"row": 4, "column": 1},
        "end_location": {"row": 4, "column": 10},
        "fix": None,
        "alternative_fixes": [],
        "related": [],
        "url": None,
    }
    assert [(i["code"], i["location"]["row"]) for i in items] == [(None, 4), ("GG101", 15)]


def test_internal_error_in_sarif_is_a_notification_of_a_failed_run(project, broken_train, capsys):
    write(project / "train.py", BROKEN_ROOT)
    code, out, err = run(capsys, "check", "--format", "sarif", "train.py")
    assert (code, err) == (2, f"train.py:4:1: {TRAIN_ERROR}\n")
    sarif = json.loads(out)["runs"][0]
    assert sarif["invocations"] == [{"executionSuccessful": False, "toolExecutionNotifications": [{
        "level": "error", "message": {"text": TRAIN_ERROR},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": "train.py", "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": 4, "startColumn": 1, "endLine": 4, "endColumn": 10}}}]}]}]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
            for r in sarif["results"]] == [("GG101", 15)]


def test_internal_error_in_github_format_and_statistics(project, broken_train, capsys):
    write(project / "train.py", BROKEN_ROOT)
    code, out, _ = run(capsys, "check", "--format", "github", "train.py")
    assert code == 2
    assert out.splitlines()[0] == f"::error file=train.py,line=4,col=1::{TRAIN_ERROR}"
    assert run(capsys, "check", "--statistics", "train.py") == (
        2, "    1  GG101  backward-through-freed-graph\n", f"train.py:4:1: {TRAIN_ERROR}\n")


def test_a_failing_rule_is_reported_unless_the_rule_is_off(project, monkeypatch, capsys):
    from gradguard.rules import gg101_backward_through_freed_graph as gg101

    def broken_build(*args, **kwargs):
        raise RuntimeError("a bug planted in GG101")
    monkeypatch.setattr(gg101, "build", broken_build)
    write(project / "train.py", BROKEN_ROOT)
    code, out, _ = run(capsys, "check", "-q", "train.py")
    assert code == 2
    assert out == (
        "train.py:4:1: internal error: rule GG101 failed on function `train` (RuntimeError: "
        "a bug planted in GG101); its GG101 findings there are missing\n"
        "train.py:12:5: internal error: rule GG101 failed on function `Trainer.step` "
        "(RuntimeError: a bug planted in GG101); its GG101 findings there are missing\n")
    assert run(capsys, "check", "--ignore", "GG101", "train.py") == (0, "All checks passed.\n", "")
