"""``gradguard check`` at scale: the result cache (hits, --no-cache, corrupt entries,
new code, --fix), parallel workers, the progress bar, and a light ``import gradguard.cli``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gradguard import analysis, cache, checker, cli
from gradguard.cache import ResultCache, text_key
from synthetic_findings import fake_analyze

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(ROOT.glob("examples/*.py"))


@pytest.fixture
def project(tmp_path, monkeypatch):
    """The examples in an empty current folder, English messages."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    for path in EXAMPLES:
        (tmp_path / path.name).write_bytes(path.read_bytes())
    return tmp_path


@pytest.fixture
def engine_calls(monkeypatch):
    """The texts the real engine analysed in this process."""
    calls = []
    real = analysis.analyze

    def counting(text, imports=None):
        calls.append(text)
        return real(text, imports)

    monkeypatch.setattr("gradguard.analysis.analyze", counting)
    return calls


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def entries(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.json"))


def test_second_run_reads_the_cache(project, engine_calls, gradguard_cache_dir, capsys):
    first = run(capsys, "check", "-j", "1", "--format", "json")
    assert len(engine_calls) == 3
    assert len(entries(gradguard_cache_dir)) == 3
    second = run(capsys, "check", "-j", "1", "--format", "json")
    assert len(engine_calls) == 3  # nothing analysed again
    assert second == first
    assert first[0] == 1 and len(json.loads(first[1])) == 3
    uncached = run(capsys, "check", "-j", "1", "--format", "json", "--no-cache")
    assert uncached == first and len(engine_calls) == 6


def test_no_cache_neither_reads_nor_writes(project, engine_calls, gradguard_cache_dir, capsys):
    run(capsys, "check", "-j", "1", "--no-cache")
    run(capsys, "check", "-j", "1", "--no-cache")
    assert len(engine_calls) == 6
    assert list(gradguard_cache_dir.iterdir()) == []


def test_configuration_applies_to_cached_results(project, engine_calls, capsys):
    code, out, _ = run(capsys, "check", "-j", "1", "--statistics")
    assert (code, out) == (1, "    1  GG101  backward-through-freed-graph\n"
                              "    1  GG102  graph-carried-across-iterations\n"
                              "    1  GG103  graph-reused-across-iterations\n")
    (project / "pyproject.toml").write_text('[tool.gradguard]\nignore = ["GG101", "GG102"]\n')
    assert run(capsys, "check", "-j", "1", "--statistics") == (
        1, "    1  GG103  graph-reused-across-iterations\n", "")
    assert run(capsys, "check", "-j", "1", "--statistics", "--select", "GG3") == (0, "", "")
    assert len(engine_calls) == 3


def test_corrupt_entry_is_ignored_and_rewritten(project, engine_calls, gradguard_cache_dir, capsys):
    first = run(capsys, "check", "-j", "1", "--format", "json")
    text = (project / "dcgan.py").read_text()
    entry = next(p for p in entries(gradguard_cache_dir) if p.stem == text_key(text)[2:])
    entry.write_text('{"gradguard": "0.1.0", "result": {"findings": [', encoding="utf-8")
    assert run(capsys, "check", "-j", "1", "--format", "json") == first
    assert engine_calls[3:] == [text]
    assert ResultCache.open().get(text) == analysis.analyze(text)


def test_forged_entry_is_not_trusted(project, engine_calls, gradguard_cache_dir, capsys):
    first = run(capsys, "check", "-j", "1", "--format", "json")
    text = (project / "dcgan.py").read_text()
    entry = next(p for p in entries(gradguard_cache_dir) if p.stem == text_key(text)[2:])
    data = json.loads(entry.read_text())
    data["result"]["findings"][0]["span"] = [[10_000, 0], [10_000, 5]]
    entry.write_text(json.dumps(data))
    assert run(capsys, "check", "-j", "1", "--format", "json") == first
    assert len(engine_calls) == 4


def test_new_code_invalidates(project, engine_calls, gradguard_cache_dir, capsys, monkeypatch):
    first = run(capsys, "check", "-j", "1")
    assert {p.name for p in gradguard_cache_dir.iterdir()} == {
        "CACHEDIR.TAG", cache.code_fingerprint()}
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "f" * 32)
    assert run(capsys, "check", "-j", "1") == first
    assert len(engine_calls) == 6
    assert {p.name for p in gradguard_cache_dir.iterdir()} == {"CACHEDIR.TAG", "f" * 32}


def test_fix_analyses_the_fixed_text(project, engine_calls, capsys):
    path = project / "char_rnn.py"
    original = path.read_text()
    run(capsys, "check", "-j", "1", "char_rnn.py")
    assert engine_calls == [original]
    code, out, _ = run(capsys, "check", "-j", "1", "--fix", "char_rnn.py")
    fixed = path.read_text()
    assert fixed != original and engine_calls[1:] == [original, fixed]  # (fixes: never cached)
    assert (code, out) == (0, "char_rnn.py: fixed 1 finding (GG102)\nAll checks passed.\n")
    assert run(capsys, "check", "-j", "1", "char_rnn.py") == (0, "All checks passed.\n", "")
    assert len(engine_calls) == 3


@pytest.mark.parametrize("mode", ["--fix", "--diff"])
def test_fixes_are_never_read_from_the_cache(project, gradguard_cache_dir, capsys, mode):
    path = project / "dcgan.py"
    original = path.read_text()
    run(capsys, "check", "-j", "1", "dcgan.py")
    entry = next(p for p in entries(gradguard_cache_dir) if p.stem == text_key(original)[2:])
    data = json.loads(entry.read_text())
    data["result"]["findings"][0]["fixes"][0]["edits"] = [
        {"span": [[7, 0], [7, 0]], "new_text": "import os; os.system('echo INJECTED')\n"}]
    entry.write_text(json.dumps(data))
    planted = run(capsys, "check", "-j", "1", mode, "dcgan.py")
    planted_text = path.read_text()
    path.write_text(original)
    assert planted == run(capsys, "check", "-j", "1", mode, "--no-cache", "dcgan.py")
    assert planted_text == path.read_text()
    assert (planted_text != original) == (mode == "--fix")
    assert "INJECTED" not in planted[1] + planted_text


def test_fix_reads_files_without_fixes_from_the_cache(project, engine_calls, capsys):
    (project / "ok.py").write_text("x = 1\n")
    run(capsys, "check", "-j", "1", "ok.py")
    assert run(capsys, "check", "-j", "1", "--fix", "ok.py") == (0, "All checks passed.\n", "")
    assert engine_calls == ["x = 1\n"]


def test_workers_share_the_cache(project, gradguard_cache_dir, capsys):
    for n in range(6):  # more files than PARALLEL_THRESHOLD: worker processes
        (project / f"copy{n}.py").write_text(
            (project / "dcgan.py").read_text().replace("netG", f"netG{n}"))
    first = run(capsys, "check", "-j", "2", "--format", "json")
    assert len(entries(gradguard_cache_dir)) == 9
    assert [p.name for p in gradguard_cache_dir.rglob(".tmp-*")] == []
    assert run(capsys, "check", "-j", "2", "--format", "json") == first
    assert run(capsys, "check", "-j", "1", "--format", "json", "--no-cache") == first


class FakePool:
    """Stands in for ProcessPoolExecutor: records its size, maps in this process."""

    sizes: list[int] = []

    def __init__(self, max_workers):
        FakePool.sizes.append(max_workers)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def map(self, fn, items, chunksize=1):
        return map(fn, items)


@pytest.mark.parametrize("files, jobs, pools", [
    (4, None, []), (5, None, ["cpus"]), (40, None, ["cpus"]), (40, "1", []), (40, "3", [3]),
])
def test_default_is_every_cpu_for_trees_in_process_for_a_handful(
        project, monkeypatch, capsys, files, jobs, pools):
    import concurrent.futures

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", FakePool)
    monkeypatch.setattr("gradguard.analysis.analyze", fake_analyze)
    monkeypatch.setattr(FakePool, "sizes", [])
    for path in project.iterdir():
        path.unlink()
    for n in range(files):
        (project / f"m{n}.py").write_text("x = 1\n")
    code, out, _ = run(capsys, "check", *(["-j", jobs] if jobs else []))
    assert (code, out) == (0, "All checks passed.\n")
    cpus = checker.default_jobs()
    assert FakePool.sizes == [min(cpus, files) if p == "cpus" else p for p in pools]


def test_only_files_to_analyse_go_to_workers(project, monkeypatch, capsys):
    import concurrent.futures

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", FakePool)
    monkeypatch.setattr(FakePool, "sizes", [])
    for n in range(40):
        (project / f"m{n}.py").write_text(f"x = {n}\n")
    first = run(capsys, "check", "-j", "2")
    for n in range(4):  # a handful changed: analysed in this process
        (project / f"m{n}.py").write_text(f"y = {n}\n")
    assert run(capsys, "check", "-j", "2") == first
    for n in range(5):  # more than PARALLEL_THRESHOLD changed: workers
        (project / f"m{n}.py").write_text(f"z = {n}\n")
    assert run(capsys, "check", "-j", "2") == first
    assert run(capsys, "check", "-j", "2") == first  # all cached: no worker
    assert FakePool.sizes == [2, 2]


def test_default_jobs_are_the_usable_cpus():
    import os

    assert checker.default_jobs() == len(os.sched_getaffinity(0))


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("files, argv, bar", [
    (60, [], True), (60, ["--format", "json"], True), (49, [], False), (60, ["-q"], False),
])
def test_progress_bar_on_a_terminal_for_large_trees(project, monkeypatch, capsys, files, argv, bar):
    monkeypatch.setattr("gradguard.analysis.analyze", fake_analyze)
    for path in project.iterdir():
        path.unlink()
    for n in range(files):
        (project / f"m{n:02d}.py").write_text("loss.backward()\n" if n == 7 else "x = 1\n")
    monkeypatch.setattr(sys, "stderr", Terminal())
    code = cli.main(["check", "-j", "1", *argv])
    out = capsys.readouterr().out
    err = sys.stderr.getvalue()
    assert code == 1
    assert (f"0/{files} [" in err) == bar  # counts, no words
    assert err.endswith("\r") == bar  # erased when done
    if "--format" in argv:
        assert [d["filename"].endswith("m07.py") for d in json.loads(out)] == [True]
    else:
        assert out.startswith("m07.py:1:1: GG101 ")


def test_no_progress_bar_off_a_terminal(project, capsys):
    for n in range(60):
        (project / f"m{n:02d}.py").write_text("x = 1\n")
    code, out, err = run(capsys, "check", "-j", "1", "-q")
    assert (code, err) == (1, "")


def test_importing_the_cli_imports_no_engine_server_or_bar():
    heavy = {"libcst", "lsprotocol", "pygls", "tqdm", "gradguard.analysis.engine",
             "gradguard.lsp", "multiprocessing", "platformdirs"}
    code = ("import sys, gradguard.cli\n"
            f"print(sorted(m for m in sys.modules if m in {heavy!r} "
            "or m.split('.')[0] in {'libcst', 'lsprotocol', 'pygls', 'tqdm'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == "[]\n"
