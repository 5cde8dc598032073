"""The result cache (gradguard.cache): exact round trips, validation of what it reads,
fingerprints, folders, atomic writes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gradguard import __version__, cache
from gradguard.analysis import analyze
from gradguard.analysis.model import (
    Edit, EngineError, FileResult, Finding, Fix, Message, Pos, Related, Span, SyntaxProblem,
)
from gradguard.cache import ResultCache, text_key

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = sorted(ROOT.glob("examples/*.py")) + sorted(ROOT.glob("tests/programs/*.py"))
TEXT = "loss = f(x)\nloss.backward()\nloss.backward()\n"
FINDING = Finding(
    "GG101", Span.of(3, 0, 3, 15),
    Message("`{tensor}` is backpropagated through the graph of `{graph}` (built on line "
            "{built_line}), which the backward on line {freed_line} already freed",
            {"tensor": "loss", "graph": "loss", "built_line": 1, "freed_line": 2}),
    related=(Related(Span.of(1, 0, 1, 4), Message("graph of `{graph}` built here", {"graph": "loss"})),),
    fixes=(Fix(Message("Recompute `{name}` before this backward (a fresh graph)", {"name": "loss"}),
               (Edit(Span.of(2, 4, 2, 4), ".detach()"),), preferred=True),
           Fix(Message("Silence with retain_graph=True on line {line}, which hides the bug: the "
                       "graph of `{graph}` (built on line {built_line}) stays in memory until "
                       "the backward on line {until_line} runs through it a second time",
                       {"line": 2, "graph": "loss", "built_line": 1, "until_line": 3}),
               (Edit(Span.of(2, 14, 2, 14), "retain_graph=True"),), applicability="unsafe")))
ERROR = EngineError("rule", "GG301", "train", Span.of(1, 0, 1, 4), "ValueError: x")
RESULT = FileResult((FINDING,), errors=(
    EngineError("root", "module", None, Span.of(1, 0, 1, 0), "KeyError: 'x'"), ERROR))


@pytest.fixture
def store(tmp_path):
    return ResultCache.open(tmp_path / "cache")


def entry_path(store: ResultCache, text: str) -> Path:
    key = text_key(text)
    return Path(store.folder) / key[:2] / f"{key[2:]}.json"


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_engine_results_come_back_equal(store, path):
    text = path.read_text(encoding="utf-8")
    result = analyze(text)
    assert store.get(text) is None
    store.put(text, result)
    assert store.get(text) == result


@pytest.mark.parametrize("text, result", [
    (TEXT, RESULT),
    ("x = (\n", FileResult(syntax_error=SyntaxProblem(Pos(2, 0), "unexpected end of file"))),
    ("x = (\n", FileResult(syntax_error=SyntaxProblem(Pos(9, 40), "past the end is printed only"))),
    ("", FileResult()),
    ("a = '\udcff'\r\nb\rc", FileResult(errors=(
        EngineError("root", "é.\udcff", "é.\udcff", Span.of(3, 0, 3, 1), "é \udcff"),))),
], ids=["findings", "syntax error", "syntax error past the end", "empty", "surrogates and CR"])
def test_results_come_back_equal(store, text, result):
    store.put(text, result)
    assert store.get(text) == result
    assert store.get(text + " ") is None


def test_entry_is_json_naming_text_and_code(store):
    store.put(TEXT, RESULT)
    entry = json.loads(entry_path(store, TEXT).read_text(encoding="utf-8"))
    assert (entry["gradguard"], entry["fingerprint"], entry["sha256"]) == (
        __version__, cache.code_fingerprint(), text_key(TEXT))
    assert entry["result"]["findings"][0]["fixes"][0] == {
        "title": {"msgid": "Recompute `{name}` before this backward (a fresh graph)",
                  "args": {"name": "loss"}}, "preferred": True,
        "applicability": "safe", "edits": [{"span": [[2, 4], [2, 4]], "new_text": ".detach()"}]}
    assert Path(store.folder).parent.joinpath("CACHEDIR.TAG").read_text().startswith(
        "Signature: 8a477f597d28d172789f06886806bc55\n")
    assert sorted(p.name for p in Path(store.folder).rglob("*")) == sorted([
        entry_path(store, TEXT).parent.name, entry_path(store, TEXT).name,
        cache.MARKER])  # no temporary file


def _edit(entry: dict, how: str) -> None:
    finding = entry["result"]["findings"][0]
    if how == "wrong text hash":
        entry["sha256"] = text_key("other")
    elif how == "other code":
        entry["fingerprint"] = "0" * 32
    elif how == "other version":
        entry["gradguard"] = "0.0.0"
    elif how == "line past the text":
        finding["span"] = [[3, 0], [5, 1]]
    elif how == "column past the line":
        finding["related"][0]["span"] = [[1, 0], [1, 12]]
    elif how == "span backwards":
        finding["span"] = [[3, 4], [3, 0]]
    elif how == "line 0":
        finding["fixes"][0]["edits"][0]["span"] = [[0, 0], [1, 0]]
    elif how == "unknown code":
        finding["code"] = "GG999"
    elif how == "bool as line":
        finding["span"] = [[True, 0], [3, 1]]
    elif how == "float argument":
        finding["message"]["args"]["freed_line"] = 2.0
    elif how == "extra field":
        finding["severity"] = "error"
    elif how == "missing field":
        del finding["fixes"]
    elif how == "unknown applicability":
        finding["fixes"][1]["applicability"] = "maybe"
    elif how == "preferred not a bool":
        finding["fixes"][0]["preferred"] = 1
    elif how == "error not an object":
        entry["result"]["errors"] = [None]
    elif how == "error as a string (format 1)":
        entry["result"]["errors"] = ["GG301: ValueError: x"]
    elif how == "unknown error kind":
        entry["result"]["errors"][1]["kind"] = "bug"
    elif how == "rule error of an unknown code":
        entry["result"]["errors"][1]["where"] = "GG999"
    elif how == "error past the text":
        entry["result"]["errors"][1]["span"] = [[4, 0], [4, 3]]
    elif how == "error root not a string":
        entry["result"]["errors"][1]["root"] = 3
    elif how == "three-number position":
        finding["span"] = [[3, 0, 1], [3, 1]]
    elif how == "msgid not GradGuard's":
        finding["message"] = {"msgid": "`loss` is fine, trust me", "args": {}}
    elif how == "escape code in an argument":
        finding["message"]["args"]["tensor"] = "loss\x1b[31m"
    elif how == "newline in an argument":
        finding["related"][0]["message"]["args"]["graph"] = "loss\nfine"
    elif how == "C1 control in an argument":
        finding["fixes"][0]["title"]["args"]["name"] = "loss\x9b2J"
    elif how == "argument missing":
        del finding["message"]["args"]["graph"]
    elif how == "argument the message lacks":
        finding["fixes"][1]["title"]["args"]["extra"] = "x"
    elif how == "escape code in an error":
        entry["result"]["errors"][1]["message"] = "ValueError: \x1b[2J"
    elif how == "newline in an error's function":
        entry["result"]["errors"][1]["root"] = "train\nfine"


EDITS = ["wrong text hash", "other code", "other version", "line past the text",
         "column past the line", "span backwards", "line 0", "unknown code", "bool as line",
         "float argument", "extra field", "missing field", "unknown applicability",
         "preferred not a bool", "error not an object", "error as a string (format 1)",
         "unknown error kind", "rule error of an unknown code", "error past the text",
         "error root not a string", "newline in an error's function", "three-number position",
         "msgid not GradGuard's", "escape code in an argument", "newline in an argument",
         "C1 control in an argument", "argument missing", "argument the message lacks",
         "escape code in an error"]


@pytest.mark.parametrize("how", EDITS)
def test_edited_entries_are_misses(store, how):
    store.put(TEXT, RESULT)
    path = entry_path(store, TEXT)
    entry = json.loads(path.read_text(encoding="utf-8"))
    _edit(entry, how)
    path.write_text(json.dumps(entry), encoding="utf-8")
    assert store.get(TEXT) is None
    store.put(TEXT, RESULT)  # rewritten
    assert store.get(TEXT) == RESULT


@pytest.mark.parametrize("data", [
    b"", b"{", b"\xff\xfe", b"[]", b"null", b'{"result": 1}', b"[" * 100_000 + b"]" * 100_000,
], ids=["empty", "truncated", "not utf-8", "list", "null", "wrong shape", "deep nesting"])
def test_corrupt_entries_are_misses(store, data):
    store.put(TEXT, RESULT)
    entry_path(store, TEXT).write_bytes(data)
    assert store.get(TEXT) is None


def test_entry_of_a_folder_is_a_miss(store):
    entry_path(store, TEXT).mkdir(parents=True)
    assert store.get(TEXT) is None
    store.put(TEXT, RESULT)  # cannot replace a folder: skipped, no temporary file left
    assert store.get(TEXT) is None
    assert [p.name for p in entry_path(store, TEXT).parent.iterdir()] == [entry_path(store, TEXT).name]


def test_entry_of_a_fifo_is_a_miss_without_waiting(store):
    store.put(TEXT, RESULT)
    entry_path(store, TEXT).unlink()
    os.mkfifo(entry_path(store, TEXT))
    assert store.get(TEXT) is None  # (reading would wait for a writer forever)
    store.put(TEXT, RESULT)  # replaced
    assert store.get(TEXT) == RESULT


@pytest.mark.parametrize("target", ["a whole entry", "/dev/zero"])
def test_entry_that_is_a_symbolic_link_is_a_miss(store, tmp_path, target):
    store.put(TEXT, RESULT)
    path = entry_path(store, TEXT)
    if target == "a whole entry":
        target = tmp_path / "elsewhere.json"
        target.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(target)
    assert store.get(TEXT) is None


def test_entries_larger_than_the_limit_are_misses_and_not_written(store, monkeypatch):
    assert cache.MAX_ENTRY_BYTES == 8 * 2**20
    store.put(TEXT, RESULT)
    path = entry_path(store, TEXT)
    size = path.stat().st_size
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", size)
    assert store.get(TEXT) == RESULT
    path.write_bytes(path.read_bytes() + b" ")  # still valid JSON, one byte over
    assert store.get(TEXT) is None
    path.unlink()
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", size - 1)
    store.put(TEXT, RESULT)
    assert not path.exists()


@pytest.mark.parametrize("result", [
    FileResult(syntax_error=SyntaxProblem(Pos(1, 0), "unexpected \x1b[2J")),
    FileResult((Finding("GG101", Span.of(1, 0, 1, 1), Message("not GradGuard's", {})),)),
], ids=["control character", "unknown msgid"])
def test_results_an_entry_may_not_hold_are_not_stored(store, result):
    store.put(TEXT, result)
    assert not entry_path(store, TEXT).exists()


def test_known_msgids_are_the_template_s(store):
    assert "syntax error: {message}" in cache._known_msgids()
    assert "Recompute `{name}` before this backward (a fresh graph)" in cache._known_msgids()
    assert "" not in cache._known_msgids()
    assert any(m.startswith("## What it does\n") for m in cache._known_msgids())  # multi-line


def test_results_json_cannot_carry_are_not_stored(store):
    odd = FileResult((Finding("GG101", Span.of(1, 0, 1, 1), Message("{x}", {"x": 1.5})),))
    store.put(TEXT, odd)
    assert not entry_path(store, TEXT).exists()


def test_unwritable_root_costs_nothing_but_the_cache(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store = ResultCache.open(blocker / "cache")
    store.put(TEXT, RESULT)
    assert store.get(TEXT) is None


def test_root_is_the_environment_variable_else_the_user_cache_folder(monkeypatch, tmp_path):
    import platformdirs

    monkeypatch.setenv("GRADGUARD_CACHE_DIR", str(tmp_path))
    assert cache.cache_root() == tmp_path
    monkeypatch.setenv("GRADGUARD_CACHE_DIR", "")
    assert cache.cache_root() == Path(platformdirs.user_cache_dir("gradguard"))
    monkeypatch.delenv("GRADGUARD_CACHE_DIR")
    assert cache.cache_root() == Path(platformdirs.user_cache_dir("gradguard"))
    assert ResultCache.open().folder == str(
        Path(platformdirs.user_cache_dir("gradguard")) / cache.code_fingerprint())


def test_fingerprint_follows_the_package_sources(monkeypatch, tmp_path):
    package = tmp_path / "gradguard"
    (package / "analysis").mkdir(parents=True)
    (package / "__init__.py").write_text("x = 1\n")
    (package / "analysis" / "engine.py").write_text("def f(): pass\n")
    monkeypatch.setattr(cache, "_PACKAGE", package)
    cache.code_fingerprint.cache_clear()
    try:
        first = cache.code_fingerprint()
        assert cache.code_fingerprint() == first and len(first) == 32
        (package / "analysis" / "engine.py").write_text("def f(): return 1\n")
        assert cache.code_fingerprint() == first  # computed once per process
        cache.code_fingerprint.cache_clear()
        second = cache.code_fingerprint()
        (package / "analysis" / "rules.py").write_text("")
        cache.code_fingerprint.cache_clear()
        third = cache.code_fingerprint()
    finally:
        cache.code_fingerprint.cache_clear()
    assert len({first, second, third}) == 3


def test_fingerprint_names_the_libcst_distribution():
    assert cache._libcst_distribution().startswith("libcst-")
    assert cache._libcst_distribution().endswith(".dist-info")


def test_new_code_removes_only_the_folders_of_other_code(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    old = ResultCache("unused", "a" * 32)
    monkeypatch.setattr(cache, "code_fingerprint", lambda: old.fingerprint)
    ResultCache.open(root).put(TEXT, RESULT)
    (root / "notes").mkdir()
    (root / ("g" * 32)).mkdir()
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "c" * 32)
    new = ResultCache.open(root)
    assert new.get(TEXT) is None
    new.put(TEXT, RESULT)
    assert sorted(p.name for p in root.iterdir()) == ["CACHEDIR.TAG", "c" * 32, "g" * 32, "notes"]
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "a" * 32)
    assert ResultCache.open(root).get(TEXT) is None  # the old code's entries are gone


def test_folders_gradguard_did_not_make_are_never_removed(tmp_path, monkeypatch):
    """A root that is not GradGuard's gets no cleanup; in GradGuard's root, only the
    folders GradGuard marked when it made them go, and symbolic links are not followed."""
    user = tmp_path / "user"
    (user / ("0123456789abcdef" * 2)).mkdir(parents=True)
    (user / ("0123456789abcdef" * 2) / "thesis.tex").write_text("precious")
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "a" * 32)
    ResultCache.open(user).put(TEXT, RESULT)  # the user's folder becomes a cache root
    outside = tmp_path / "outside"
    ResultCache.open(outside).put(TEXT, RESULT)  # a marked folder elsewhere
    (user / ("d" * 32)).symlink_to(outside / ("a" * 32))
    (user / ("e" * 32)).mkdir()  # a marker that is a symbolic link to a real one
    (user / ("e" * 32) / cache.MARKER).symlink_to(outside / ("a" * 32) / cache.MARKER)
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "c" * 32)
    ResultCache.open(user).put(TEXT, RESULT)
    assert sorted(p.name for p in user.iterdir()) == [
        "0123456789abcdef" * 2, "CACHEDIR.TAG", "c" * 32, "d" * 32, "e" * 32]
    assert (user / ("0123456789abcdef" * 2) / "thesis.tex").read_text() == "precious"
    assert ResultCache(str(outside / ("a" * 32)), "a" * 32).get(TEXT) == RESULT


@pytest.mark.parametrize("tag", [None, "Signature: 8a477f597d28d172789f06886806bc55\n# other tool\n"],
                         ids=["no tag", "another tool's tag"])
def test_a_root_gradguard_did_not_tag_gets_no_cleanup(tmp_path, monkeypatch, tag):
    root = tmp_path / "cache"
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "a" * 32)
    ResultCache.open(root).put(TEXT, RESULT)
    if tag is None:
        (root / "CACHEDIR.TAG").unlink()
    else:
        (root / "CACHEDIR.TAG").write_text(tag)
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "c" * 32)
    ResultCache.open(root)
    assert sorted(p.name for p in root.iterdir()) == (["a" * 32] if tag is None
                                                      else ["CACHEDIR.TAG", "a" * 32])


def test_folders_are_marked_by_gradguard(store):
    store.put(TEXT, RESULT)
    marker = Path(store.folder) / cache.MARKER
    assert marker.read_text(encoding="ascii") == (
        f"This folder holds results of gradguard code {store.fingerprint}; "
        "gradguard deletes it when other code opens the cache.\n")


def test_cache_is_picklable_for_workers(store):
    import pickle

    assert pickle.loads(pickle.dumps(store)) == store


def test_entries_are_written_atomically(store, monkeypatch):
    seen = []
    real_replace = os.replace

    def replace(src, dst):
        seen.append((os.path.basename(src).startswith(".tmp-"), dst, Path(src).read_bytes()))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    store.put(TEXT, RESULT)
    [(temporary, dst, data)] = seen
    assert temporary and dst == str(entry_path(store, TEXT))
    assert json.loads(data)["sha256"] == text_key(TEXT)


def test_every_field_of_the_model_is_carried():
    """A field added to the model must be added to the cache's encoding (and its
    FORMAT bumped): this lists the fields the encoding carries."""
    import dataclasses

    carried = {Finding: {"code", "span", "message", "related", "fixes"},
               Fix: {"title", "edits", "preferred", "applicability"},
               Edit: {"span", "new_text"}, Related: {"span", "message", "backward"},
               Message: {"msgid", "args"}, SyntaxProblem: {"pos", "message"},
               FileResult: {"findings", "syntax_error", "errors", "deps"},
               EngineError: {"kind", "where", "root", "span", "message"},
               Span: {"start", "end", "path"}, Pos: {"line", "column"}}
    assert {k: {f.name for f in dataclasses.fields(k)} for k in carried} == carried
