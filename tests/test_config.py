"""gradguard.config: [tool.gradguard], selectors, per-file ignores, excludes, errors."""

import os

import pytest

from gradguard.config import (
    DEFAULT_EXCLUDE, ConfigError, Settings, SettingsResolver, is_excluded, resolve_selector,
    rule_enabled, settings_from_table, severity_for, with_overrides,
)


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def settings(root, **table):
    return settings_from_table(table, "pyproject.toml", str(root))


@pytest.mark.parametrize("token, code", [
    ("GG101", "GG101"), ("gg101", "GG101"), ("GG1", "GG1"), ("GG", "GG"), ("GG10", "GG10"),
    ("backward-through-freed-graph", "GG101"), (" graph-reused-across-iterations ", "GG103"),
    ("GG999", None), ("GG9", None), ("GG1011", None), ("E501", None), ("no-such-rule", None),
])
def test_resolve_selector(token, code):
    assert resolve_selector(token) == code


def test_default_selects_every_rule_with_its_default_severity():
    s = Settings()
    assert all(rule_enabled(s, code, "a.py") for code in ("GG101", "GG102", "GG103"))
    assert severity_for(s, "GG101") == "error"


def test_more_specific_selector_wins_and_ignore_wins_ties(tmp_path):
    s = settings(tmp_path, select=["GG1"], ignore=["GG103"])
    assert [rule_enabled(s, c, None) for c in ("GG101", "GG102", "GG103")] == [True, True, False]
    s = settings(tmp_path, select=["GG101"], ignore=["GG1"])
    assert [rule_enabled(s, c, None) for c in ("GG101", "GG102")] == [True, False]
    s = settings(tmp_path, select=["GG102"], ignore=["graph-carried-across-iterations"])
    assert not rule_enabled(s, "GG102", None)
    s = settings(tmp_path, select=[])
    assert not rule_enabled(s, "GG101", None)


def test_per_file_ignores(tmp_path):
    s = settings(tmp_path, **{"per-file-ignores": {
        "tests/*.py": ["GG103"], "conftest.py": ["GG1"], "/scripts/": ["GG101"]}})
    assert not rule_enabled(s, "GG103", tmp_path / "tests" / "test_a.py")
    assert rule_enabled(s, "GG101", tmp_path / "tests" / "test_a.py")
    assert rule_enabled(s, "GG103", tmp_path / "src" / "tests" / "test_a.py")
    assert not rule_enabled(s, "GG102", tmp_path / "deep" / "er" / "conftest.py")
    assert not rule_enabled(s, "GG101", tmp_path / "scripts" / "train.py")
    assert rule_enabled(s, "GG101", tmp_path / "src" / "scripts" / "train.py")
    assert rule_enabled(s, "GG103", None)


def test_relative_paths_are_taken_from_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = settings(tmp_path, **{"per-file-ignores": {"tests/*.py": ["GG103"]}})
    assert not rule_enabled(s, "GG103", os.path.join("tests", "t.py"))


def test_severity_table(tmp_path):
    s = settings(tmp_path, severity={"GG1": "warning", "graph-reused-across-iterations": "info"})
    assert [severity_for(s, c) for c in ("GG101", "GG102", "GG103")] == ["warning", "warning", "info"]


def test_exclude_and_extend_exclude(tmp_path):
    default = settings(tmp_path, **{"extend-exclude": ["generated/", "legacy_*.py"]})
    assert default.exclude == DEFAULT_EXCLUDE
    assert is_excluded(default, tmp_path / "a" / "node_modules", is_dir=True)
    assert is_excluded(default, tmp_path / "generated", is_dir=True)
    assert not is_excluded(default, tmp_path / "generated", is_dir=False)
    assert is_excluded(default, tmp_path / "x" / "legacy_train.py", is_dir=False)
    assert not is_excluded(default, tmp_path / "train.py", is_dir=False)
    replaced = settings(tmp_path, exclude=["third_party/"])
    assert not is_excluded(replaced, tmp_path / "build", is_dir=True)
    assert is_excluded(replaced, tmp_path / "third_party", is_dir=True)


def test_overrides_from_the_command_line(tmp_path):
    s = settings(tmp_path, select=["GG1"], ignore=["GG103"], locale="en")
    added = with_overrides(s, ignore=("GG102",))
    assert (added.select, added.ignore) == (("GG1",), ("GG103", "GG102"))
    fresh = with_overrides(s, select=("GG103",), ignore=(), locale="zh-CN")
    assert (fresh.select, fresh.ignore, fresh.locale) == (("GG103",), (), "zh-CN")


def test_nearest_pyproject_with_a_gradguard_table_applies(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.gradguard]\nignore = ["GG103"]\nlocale = "zh-CN"\n')
    write(tmp_path / "pkg" / "pyproject.toml", '[project]\nname = "pkg"\n')
    write(tmp_path / "other" / "pyproject.toml", '[tool.gradguard]\nselect = ["GG101"]\n')
    resolver = SettingsResolver()
    inner = resolver.for_path(tmp_path / "pkg" / "sub" / "train.py")
    assert (inner.ignore, inner.locale, inner.root) == (("GG103",), "zh-CN", str(tmp_path))
    assert inner.source == str(tmp_path / "pyproject.toml")
    other = resolver.for_path(tmp_path / "other" / "train.py")
    assert (other.select, other.root) == (("GG101",), str(tmp_path / "other"))


def test_resolver_applies_overrides_and_defaults_to_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = SettingsResolver(select=["GG102"], locale="zh").for_path(tmp_path / "a.py")
    assert (s.select, s.locale, s.root, s.source) == (("GG102",), "zh", str(tmp_path), None)


@pytest.mark.parametrize("toml, message", [
    ('select = ["GG101", "GG9x"]',
     "{file}: tool.gradguard.select: unknown rule, code or prefix 'GG9x'"),
    ('ignore = "GG101"', "{file}: tool.gradguard.ignore: expected a list of strings"),
    ('per-file-ignores = { "tests/*.py" = ["nope"] }',
     "{file}: tool.gradguard.per-file-ignores.\"tests/*.py\": unknown rule, code or prefix 'nope'"),
    ("per-file-ignores = []", "{file}: tool.gradguard.per-file-ignores: expected a table"),
    ('severity = { GG101 = "fatal" }',
     "{file}: tool.gradguard.severity.GG101: expected error, warning or info, not 'fatal'"),
    ('severity = { GG7 = "info" }',
     "{file}: tool.gradguard.severity.GG7: unknown rule, code or prefix 'GG7'"),
    ("locale = 3", "{file}: tool.gradguard.locale: expected a string"),
    ('extend-exclude = ["a", 1]', "{file}: tool.gradguard.extend-exclude: expected a list of strings"),
    ('selct = ["GG101"]', "{file}: tool.gradguard.selct: unknown key (did you mean `select`?)"),
    ("colour = true", "{file}: tool.gradguard.colour: unknown key"),
])
def test_bad_config_names_the_file_and_the_key(tmp_path, toml, message):
    path = write(tmp_path / "pyproject.toml", f"[tool.gradguard]\n{toml}\n")
    with pytest.raises(ConfigError) as info:
        SettingsResolver().for_path(tmp_path / "a.py")
    assert str(info.value) == message.format(file=path)
    [problem] = info.value.messages
    assert problem.args["file"] == str(path)


def test_every_problem_of_a_table_is_reported_at_once(tmp_path):
    path = write(tmp_path / "pyproject.toml", "[tool.gradguard]\n"
                 'selct = ["GG101"]\nignore = ["GG9x", "GG102", "nope"]\nextend_exclude = []\n'
                 'severity = { GG7 = "info", GG101 = "fatal" }\nlocale = "zh-CN"\n')
    with pytest.raises(ConfigError) as info:
        SettingsResolver().for_path(tmp_path / "a.py")
    assert [m.render() for m in info.value.messages] == [f"{path}: {text}" for text in (
        "tool.gradguard.selct: unknown key (did you mean `select`?)",
        "tool.gradguard.ignore: unknown rule, code or prefix 'GG9x'",
        "tool.gradguard.ignore: unknown rule, code or prefix 'nope'",
        "tool.gradguard.extend_exclude: unknown key (did you mean `extend-exclude`?)",
        "tool.gradguard.severity.GG7: unknown rule, code or prefix 'GG7'",
        "tool.gradguard.severity.GG101: expected error, warning or info, not 'fatal'",
    )]
    assert str(info.value) == "\n".join(m.render() for m in info.value.messages)


def test_invalid_toml_names_the_file(tmp_path):
    path = write(tmp_path / "pyproject.toml", "[tool.gradguard\n")
    with pytest.raises(ConfigError) as info:
        SettingsResolver().for_path(tmp_path)
    assert str(info.value) == (f"{path}: invalid TOML: Expected ']' at the end of a table "
                               "declaration (at line 1, column 16)")


def test_gradguard_must_be_a_table(tmp_path):
    path = write(tmp_path / "pyproject.toml", "[tool]\ngradguard = 1\n")
    with pytest.raises(ConfigError) as info:
        SettingsResolver().for_path(tmp_path)
    assert str(info.value) == f"{path}: tool.gradguard: expected a table"


def test_editor_settings_use_their_own_source_and_prefix(tmp_path):
    with pytest.raises(ConfigError) as info:
        settings_from_table({"select": ["zzz"]}, "editor settings", str(tmp_path),
                            prefix="gradguard.")
    assert str(info.value) == "editor settings: gradguard.select: unknown rule, code or prefix 'zzz'"
