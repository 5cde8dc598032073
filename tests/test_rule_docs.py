"""The rule pages (docs/rules/) are what scripts/gen_rule_docs.py writes from the rule
records, and every link to a rule goes to its page, under the project's Repository URL
(``[project.urls]`` of pyproject.toml, read from the installed distribution's metadata,
else from the source checkout)."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import pathlib

import pytest

import gradguard
from gradguard.config import tomllib
from gradguard.rules import all_rules, rule_for

ROOT = pathlib.Path(__file__).resolve().parent.parent
REPOSITORY = "https://github.com/gradguard/gradguard"


def _script():
    spec = importlib.util.spec_from_file_location("gen_rule_docs",
                                                  ROOT / "scripts" / "gen_rule_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rule_pages_are_current():
    wanted = _script().pages()
    on_disk = {p: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "rules").glob("*.md")}
    assert sorted(p.name for p in on_disk) == sorted(p.name for p in wanted)
    stale = [p.name for p, text in wanted.items() if on_disk[p] != text]
    assert stale == [], "run python scripts/gen_rule_docs.py"


def test_a_rule_page_holds_the_record_and_what_is_reported():
    page = (ROOT / "docs" / "rules" / "GG104.md").read_text(encoding="utf-8")
    rule = rule_for("GG104")
    assert page.splitlines()[1] == "# GG104 `detach-result-discarded`"
    assert page.splitlines()[3] == f"{rule.summary}."
    assert rule.docs.strip() in page
    assert all(f"```python\n{p.rstrip()}\n```" in page for p in rule.valid + rule.invalid)
    assert "| [GG104](GG104.md) | `detach-result-discarded` | warning | " \
           f"{rule.summary} |" in (ROOT / "docs" / "rules" / "README.md").read_text("utf-8")


def test_pyproject_names_the_repository():
    with open(ROOT / "pyproject.toml", "rb") as f:
        urls = tomllib.load(f)["project"]["urls"]
    assert urls["Repository"] == REPOSITORY
    assert urls["Documentation"] == f"{REPOSITORY}/blob/main/docs/rules/README.md"
    assert (ROOT / "docs" / "rules" / "README.md").is_file()
    assert gradguard.project_url("Repository") == REPOSITORY


def test_every_rule_links_to_its_page_in_the_repository():
    for rule in all_rules():
        assert rule.url == f"{REPOSITORY}/blob/main/docs/rules/{rule.code}.md"
        assert (ROOT / "docs" / "rules" / f"{rule.code}.md").is_file()


@pytest.fixture
def fresh_urls():
    gradguard._project_urls.cache_clear()
    yield
    gradguard._project_urls.cache_clear()


def _not_installed(name):
    raise importlib.metadata.PackageNotFoundError(name)


def test_not_installed_the_checkout_pyproject_is_read(fresh_urls, monkeypatch):
    monkeypatch.setattr(importlib.metadata, "metadata", _not_installed)
    assert gradguard.project_url("Repository") == REPOSITORY


def test_neither_installed_nor_in_a_checkout_is_a_clear_error(fresh_urls, monkeypatch,
                                                              tmp_path):
    monkeypatch.setattr(importlib.metadata, "metadata", _not_installed)
    monkeypatch.setattr(gradguard, "_CHECKOUT_PYPROJECT", str(tmp_path / "pyproject.toml"))
    with pytest.raises(LookupError) as error:
        gradguard.project_url("Repository")
    assert str(error.value) == (
        "GradGuard's project URL 'Repository' is unknown: neither the installed 'gradguard' "
        f"distribution's metadata nor {tmp_path / 'pyproject.toml'} has it in [project.urls]")
