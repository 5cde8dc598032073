"""Locale negotiation and the message catalogs (gradguard.i18n, scripts/i18n.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from gradguard import i18n
from gradguard.analysis.model import Message

_SPEC = importlib.util.spec_from_file_location(
    "gradguard_i18n_tool", Path(__file__).resolve().parent.parent / "scripts" / "i18n.py")
tool = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = tool
_SPEC.loader.exec_module(tool)

SHIPPED = ("en", "zh_CN")

# A real message (the related location "graph built here" of GG101-GG103) and its renderings.
RENDER_MSGID, RENDER_ARGS = "graph of `{graph}` built here", {"graph": "fake"}
RENDER_EN, RENDER_ZH = "graph of `fake` built here", "`fake` 的计算图在这里构建"


@pytest.mark.parametrize("tag, canonical", [
    ("zh-cn", "zh_CN"), ("zh-CN", "zh_CN"), ("zh_CN", "zh_CN"), ("zh-Hans", "zh_CN"),
    ("zh-Hans-CN", "zh_CN"), ("zh_CN.UTF-8", "zh_CN"), ("zh_CN.GB2312", "zh_CN"), ("zh", "zh_CN"),
    ("ZH", "zh_CN"), ("zh-SG", "zh_CN"), ("zh-Hans-HK", "zh_CN"),
    ("zh-tw", "zh_TW"), ("zh-TW", "zh_TW"), ("zh-Hant", "zh_TW"), ("zh-Hant-TW", "zh_TW"),
    ("zh-HK", "zh_TW"), ("zh-MO", "zh_TW"), ("zh_TW.Big5", "zh_TW"), ("zh-Hant-CN", "zh_TW"),
    ("en", "en"), ("en-US", "en_US"), ("en_GB.UTF-8", "en_GB"), ("de_DE@euro", "de_DE"),
    ("es-419", "es_419"), ("fr", "fr"), ("C", "en"), ("POSIX", "en"), ("C.UTF-8", "en"),
    (None, "en"), ("", "en"), ("  ", "en"), ("*", "en"), ("-", "en"), ("12", "en"),
])
def test_canonical_locale(tag, canonical):
    assert i18n.canonical_locale(tag) == canonical


@pytest.mark.parametrize("tag, locale", [
    ("zh-cn", "zh_CN"), ("zh-CN", "zh_CN"), ("zh-Hans", "zh_CN"), ("zh-Hans-CN", "zh_CN"),
    ("zh_CN.UTF-8", "zh_CN"), ("zh", "zh_CN"), ("zh-SG", "zh_CN"),
    # No zh_TW catalog ships: Traditional Chinese readers get English, not Simplified.
    ("zh-tw", "en"), ("zh-Hant", "en"), ("zh-HK", "en"), ("zh_TW.Big5", "en"),
    ("en", "en"), ("en-US", "en"), ("en_GB.UTF-8", "en"), ("C", "en"), ("POSIX", "en"),
    ("C.UTF-8", "en"), (None, "en"), ("", "en"), ("fr-FR", "en"), ("xx", "en"), ("*", "en"),
])
def test_normalize_locale(tag, locale):
    assert i18n.normalize_locale(tag) == locale


@pytest.mark.parametrize("environ, locale", [
    ({}, "en"),
    ({"LANG": "zh_CN.UTF-8"}, "zh_CN"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh_CN"),
    ({"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "en"),
    ({"LANGUAGE": "zh_CN:en", "LC_ALL": "C"}, "zh_CN"),
    ({"LANGUAGE": "fr:zh_CN", "LANG": "en_US.UTF-8"}, "zh_CN"),
    ({"LANGUAGE": "fr:de", "LANG": "zh_CN.UTF-8"}, "en"),
    ({"LANGUAGE": "", "LANG": "zh_CN.UTF-8"}, "zh_CN"),
    ({"LANG": "zh_TW.UTF-8"}, "en"),
])
def test_default_locale(environ, locale):
    assert i18n.default_locale(environ) == locale


def test_default_locale_reads_the_process_environment(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert i18n.default_locale() == "zh_CN"


def test_shipped_locales_are_english_and_every_catalog():
    assert i18n.shipped_locales() == SHIPPED
    assert ("en", *tool.catalog_locales()) == SHIPPED


def test_translator_is_cached_per_locale():
    assert i18n.translator("zh-cn") is i18n.translator("zh_CN.UTF-8")
    assert i18n.translator(None) is i18n.translator("en-US")
    assert i18n.translator("zh-CN") is not i18n.translator("en")


def test_render_in_english_and_chinese():
    message = Message(RENDER_MSGID, RENDER_ARGS)
    assert i18n.render(message, "en") == RENDER_EN
    assert i18n.render(message, "zh-CN") == RENDER_ZH
    assert i18n.render(message, "zh-TW") == RENDER_EN


def test_every_message_can_be_extracted():
    assert tool.unextracted_messages() == []


def test_unextracted_messages_are_named_with_their_line(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text(
        'from m import Message, N_\n'
        'ok = Message(N_("Graph freed on line {line}"), {"line": 3})\n'
        'bad = Message("Graph freed")\n'
        'worse = model.Message(msgid=f"line {n}")\n'
        'fine = f"**{heading}:** {tr.gettext(text)}"\n'
        'hidden = f"**{_(N_(\'Why\'))}:**"\n')
    assert tool.unextracted_messages(package) == [
        "pkg/a.py:3: mark the msgid with N_(): 'Graph freed'",
        "pkg/a.py:4: mark the msgid with N_(): f'line {n}'",
        "pkg/a.py:6: move N_('Why') out of the f-string, where Babel does not see it",
    ]


def test_template_is_up_to_date_with_the_source():
    assert tool.template_problems(tool.load(tool.TEMPLATE), tool.extract_template()) == []


@pytest.mark.parametrize("locale", SHIPPED[1:])
def test_catalog_translates_every_message(locale):
    template = tool.load(tool.TEMPLATE)
    catalog = tool.load(tool.po_path(locale), locale)
    assert tool.catalog_problems(template, catalog) == []


def test_installed_catalogs_are_compiled_from_the_current_sources():
    assert tool.compiled_problems(i18n.LOCALE_DIR) == []


@pytest.mark.parametrize("msgid, translation, problems", [
    ("Backward of `{name}` on line {line}", "第 {line} 行对 `{name}` 做反向传播", []),
    ("x", "  ", ["no translation"]),
    ("`{name}` at {line}", "`{name}`", ["placeholders ['name'] != ['line', 'name']"]),
    ("{a} and {b}", "{a}、{a}", ["placeholders ['a'] != ['a', 'b']"]),
    ("Detach `{name}`", "分离 `{name}`，别让损失反传进 `{name}` 的图", []),
    ("{{literal}} {a}", "{{文字}} {a}", []),
    ("Use `x.detach()`", "用 `x.detach` 吧",
     ["code spans differ: missing ['x.detach()'], added ['x.detach']"]),
    ("Do:\n\n```python\nx = 1\n```\n", "做法：\n\n```python\nx = 2\n```\n",
     ["fenced code blocks differ from the msgid's"]),
    ("Do:\n\n```python\nx = `1`\n```\nthen `y`", "做法：\n\n```python\nx = `1`\n```\n然后 `y`", []),
    ("raises `RuntimeError: one of\n  the variables`", "抛出 `RuntimeError: one of the variables`", []),
])
def test_message_problems(msgid, translation, problems):
    assert tool.message_problems(msgid, translation) == problems


def test_catalog_problems_name_missing_fuzzy_and_stale_entries():
    template = Catalog()
    for msgid in ("one", "two", "three"):
        template.add(msgid)
    catalog = Catalog(locale="zh_CN")
    catalog.add("one", "一")
    catalog.add("two", "二", flags=["fuzzy"])
    catalog.add("gone", "没了")
    assert tool.catalog_problems(template, catalog) == [
        "zh_CN: fuzzy (review, then drop the flag): 'two'",
        "zh_CN: missing (run extract): 'three'",
        "zh_CN: not in the template (run extract): 'gone'",
    ]


@pytest.mark.parametrize("locale, forms, problems", [
    ("zh_CN", ("{count} 个文件无法检查",), []),
    ("zh_CN", ("有文件无法检查",), ["placeholders [] != ['count']"]),
    ("zh_CN", ("{count} 个", "{count} 个"), ["2 plural forms, the catalog's Plural-Forms says 1"]),
    ("de", ("Eine Datei nicht lesbar", "{count} Dateien nicht lesbar"), []),
    ("de", ("{count} Datei nicht lesbar", "{count} Dateien nicht lesbar"),
     ["placeholders ['count'] != []"]),
])
def test_plural_forms_are_checked_against_singular_and_plural(locale, forms, problems):
    msgid = ("One file could not be checked", "{count} files could not be checked")
    template = Catalog()
    template.add(msgid)
    catalog = Catalog(locale=locale)
    catalog.add(msgid, forms)
    assert tool.catalog_problems(template, catalog) == [f"{locale}: {p}: {msgid!r}" for p in problems]


def test_template_problems_name_new_and_removed_messages():
    old, new = Catalog(), Catalog()
    old.add("kept")
    old.add("removed")
    new.add("kept")
    new.add("added")
    assert tool.template_problems(old, new) == [
        "not in gradguard.pot (run `python scripts/i18n.py extract`): 'added'",
        "in gradguard.pot but no longer in the source (run extract): 'removed'",
    ]
