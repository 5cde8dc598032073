#!/usr/bin/env python3
"""GradGuard's message catalogs: extract, compile, check (needs Babel, not GradGuard).

    python scripts/i18n.py extract        # source -> gradguard.pot -> every .po (keeps translations)
    python scripts/i18n.py init LOCALE    # start a new catalog, e.g. zh_TW
    python scripts/i18n.py compile        # every .po -> .mo beside it (the build hook does this)
    python scripts/i18n.py check          # what tests/test_i18n.py asserts; exit 1 on a problem

Messages are the strings passed to ``N_()``, ``_()``, ``gettext()`` or ``ngettext()``
(Babel's default keywords) anywhere under ``server/gradguard``; a ``# TRANSLATORS:`` comment just above
goes into the catalogs. The template records each message's file but not its line, so
that moving code does not churn the catalogs; files are rewritten only when a message
changed. The build hook ``hatch_build.py`` loads this file to run :func:`compile_catalogs`.
"""

from __future__ import annotations

import ast
import io
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIR = ROOT / "server" / "gradguard"
LOCALE_DIR = SOURCE_DIR / "i18n" / "locale"
DOMAIN = "gradguard"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
COMMENT_TAGS = ("TRANSLATORS:",)
_HEADER_COMMENT = """\
# Messages of GradGuard; English is the source language.
# Made by `python scripts/i18n.py extract`; compiled to .mo at build time.
# Distributed under the same license as GradGuard."""

# A str.format field as messages use it: {name}, {name!r}, {name:>4}; not {{escaped}}.
_PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:![rsa])?(?::[^{}]*)?\}")
# Markdown fenced code blocks (``` or ~~~ fences) and inline code spans.
_FENCED = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n.*?^[ \t]*\1[ \t]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)


def po_path(locale: str) -> Path:
    """The catalog source for ``locale``: ``LOCALE_DIR/<locale>/LC_MESSAGES/gradguard.po``."""
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def catalog_locales() -> list[str]:
    """Every locale with a ``.po`` catalog, sorted (English, the source, has none)."""
    return sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def load(path: Path, locale: str | None = None) -> Catalog:
    """Read a ``.po`` or ``.pot`` file (UTF-8); fuzzy entries are kept, flagged."""
    with path.open("rb") as f:
        return read_po(f, locale=locale, domain=DOMAIN)


def _new_catalog(locale: str | None) -> Catalog:
    """An empty catalog with GradGuard's header (``locale=None`` for the template)."""
    return Catalog(locale=locale, project="GradGuard", copyright_holder="the GradGuard authors",
                   header_comment=_HEADER_COMMENT, charset="utf-8", fuzzy=False)


def extract_template() -> Catalog:
    """Extract every marked message under ``server/gradguard`` into a fresh template.

    Locations are repository-relative file paths without line numbers.
    """
    template = _new_catalog(None)
    found = extract_from_dir(SOURCE_DIR, keywords=DEFAULT_KEYWORDS,
                             comment_tags=COMMENT_TAGS, strip_comment_tags=True)
    for filename, _lineno, msgid, comments, context in found:
        path = (SOURCE_DIR / filename).relative_to(ROOT).as_posix()
        template.add(msgid, None, [(path, None)], auto_comments=comments, context=context)
    return template


def _entries(catalog: Catalog) -> list[tuple]:
    """What a catalog says, without its header: used to skip rewrites that change nothing."""
    return [(m.id, m.string or "", m.context, sorted(m.locations), sorted(m.flags), m.auto_comments,
             m.user_comments) for m in catalog if m.id]


def _write(path: Path, catalog: Catalog, previous: Catalog | None) -> bool:
    """Write ``catalog`` to ``path`` unless it says what ``previous`` said; True if written."""
    if previous is not None and _entries(previous) == _entries(catalog):
        return False
    buf = io.BytesIO()
    write_po(buf, catalog, ignore_obsolete=True, include_lineno=False, width=0)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())
    return True


def extract() -> list[Path]:
    """Re-extract the template and merge it into every ``.po``; return the files written.

    Translations of unchanged msgids are kept; a changed msgid gets the closest old
    translation marked fuzzy (review it, then delete the ``fuzzy`` flag); removed
    msgids are dropped.
    """
    template = extract_template()
    previous = load(TEMPLATE) if TEMPLATE.exists() else None
    written = [TEMPLATE] if _write(TEMPLATE, template, previous) else []
    for locale in catalog_locales():
        path = po_path(locale)
        catalog = load(path, locale)
        before = load(path, locale)
        catalog.update(template, update_creation_date=False)
        if _write(path, catalog, before):
            written.append(path)
    return written


def init(locale: str) -> Path:
    """Start the catalog for ``locale`` (e.g. ``zh_TW``) from the template; raises
    ``FileExistsError`` if it exists."""
    path = po_path(locale)
    if path.exists():
        raise FileExistsError(f"{path} exists: run `extract` to update it")
    catalog = _new_catalog(locale)
    catalog.update(load(TEMPLATE))
    _write(path, catalog, None)
    return path


def compile_mo(catalog: Catalog) -> bytes:
    """The ``.mo`` bytes for ``catalog``; fuzzy and untranslated entries are left out
    (gettext then shows the English msgid)."""
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def compile_catalogs() -> list[Path]:
    """Compile every ``.po`` into the ``.mo`` beside it; return the ``.mo`` paths."""
    written = []
    for locale in catalog_locales():
        mo = po_path(locale).with_suffix(".mo")
        mo.write_bytes(compile_mo(load(po_path(locale), locale)))
        written.append(mo)
    return written


def template_problems(template: Catalog, extracted: Catalog) -> list[str]:
    """How the committed ``template`` differs from a fresh extraction (msgids only)."""
    have, want = {m.id for m in template if m.id}, {m.id for m in extracted if m.id}
    return ([f"not in {TEMPLATE.name} (run `python scripts/i18n.py extract`): {m!r}"
             for m in sorted(want - have, key=str)]
            + [f"in {TEMPLATE.name} but no longer in the source (run extract): {m!r}"
               for m in sorted(have - want, key=str)])


def _called_name(node: ast.AST) -> str | None:
    """The name a call calls (``f`` for ``f(...)`` and ``obj.f(...)``), else ``None``."""
    if not isinstance(node, ast.Call):
        return None
    return node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)


def unextracted_messages(source: Path = SOURCE_DIR) -> list[str]:
    """Messages under ``source`` that Babel cannot extract, so they would never be
    translated: a ``Message(...)`` whose msgid is a string literal or f-string instead of
    ``N_("...")``, and an ``N_("...")``/``_("...")``/``gettext("...")``/``ngettext(...)``
    call with a string literal inside an f-string (Babel's Python extractor does not look
    into f-strings before Python 3.12).
    One ``path:line: ...`` problem each, the path relative to ``source``'s parent
    (``gradguard/lsp/server.py:135``)."""
    problems = []
    for path in sorted(source.rglob("*.py")):
        where = path.relative_to(source.parent).as_posix()
        for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
            if _called_name(node) == "Message":
                msgid = node.args[0] if node.args else next(
                    (k.value for k in node.keywords if k.arg == "msgid"), None)
                if isinstance(msgid, (ast.Constant, ast.JoinedStr)):
                    problems.append(f"{where}:{node.lineno}: mark the msgid with N_(): "
                                    f"{ast.unparse(msgid)}")
            elif isinstance(node, ast.JoinedStr):
                problems += [f"{where}:{call.lineno}: move {ast.unparse(call)} out of the f-string, "
                             "where Babel does not see it" for call in ast.walk(node)
                             if _called_name(call) in DEFAULT_KEYWORDS and any(
                                 isinstance(a, ast.Constant) and isinstance(a.value, str)
                                 for a in call.args)]
    return problems


def _code(text: str) -> tuple[list[str], set[str]]:
    """A Markdown text's fenced code blocks (in order) and its inline code spans."""
    blocks = [m.group(0).strip() for m in _FENCED.finditer(text)]
    # A line break inside a code span renders as a space (CommonMark).
    spans = {re.sub(r"[ \t]*\n[ \t]*", " ", m.group(2))
             for m in _CODE_SPAN.finditer(_FENCED.sub("", text))}
    return blocks, spans


def message_problems(msgid: str, translation: str) -> list[str]:
    """Why ``translation`` cannot stand in for ``msgid``: empty, a different set of
    ``{name}`` placeholders (a translation may use one twice), changed fenced code
    blocks or a different set of inline code spans."""
    if not translation.strip():
        return ["no translation"]
    problems = []
    want, have = set(_PLACEHOLDER.findall(msgid)), set(_PLACEHOLDER.findall(translation))
    if want != have:
        problems.append(f"placeholders {sorted(have)} != {sorted(want)}")
    (want_blocks, want_spans), (have_blocks, have_spans) = _code(msgid), _code(translation)
    if want_blocks != have_blocks:
        problems.append("fenced code blocks differ from the msgid's")
    if want_spans != have_spans:
        problems.append(f"code spans differ: missing {sorted(want_spans - have_spans)}, "
                        f"added {sorted(have_spans - want_spans)}")
    return problems


def _entry_problems(msgid: str | tuple[str, str], string: str | tuple[str, ...],
                    num_plurals: int) -> list[str]:
    """:func:`message_problems` for one entry; a plural entry needs ``num_plurals``
    forms, the first checked against the singular msgid when there are several, every
    other one (the only one, in Chinese) against the plural msgid."""
    if isinstance(msgid, str):
        return message_problems(msgid, string)
    if len(string) != num_plurals:
        return [f"{len(string)} plural forms, the catalog's Plural-Forms says {num_plurals}"]
    singular, plural = msgid
    problems = []
    for i, form in enumerate(string):
        source = singular if i == 0 and num_plurals > 1 else plural
        problems += [p for p in message_problems(source, form) if p not in problems]
    return problems


def catalog_problems(template: Catalog, catalog: Catalog) -> list[str]:
    """Every reason ``catalog`` is not a complete translation of ``template``: a msgid
    missing, untranslated, fuzzy or failing :func:`message_problems`, or left over."""
    locale = catalog.locale_identifier
    problems = []
    for m in template:
        if not m.id:
            continue
        entry = catalog.get(m.id, m.context)
        if entry is None:
            problems.append(f"{locale}: missing (run extract): {m.id!r}")
        elif entry.fuzzy:
            problems.append(f"{locale}: fuzzy (review, then drop the flag): {m.id!r}")
        else:
            problems += [f"{locale}: {p}: {m.id!r}"
                         for p in _entry_problems(m.id, entry.string, catalog.num_plurals)]
    wanted = {(m.id, m.context) for m in template if m.id}
    problems += [f"{locale}: not in the template (run extract): {m.id!r}"
                 for m in catalog if m.id and (m.id, m.context) not in wanted]
    return problems


def compiled_problems(locale_dir: Path) -> list[str]:
    """Each ``.mo`` under ``locale_dir`` that is missing or differs from its ``.po``
    compiled now (run ``compile``, or reinstall)."""
    problems = []
    for locale in catalog_locales():
        mo = locale_dir / locale / "LC_MESSAGES" / f"{DOMAIN}.mo"
        if not mo.exists() or mo.read_bytes() != compile_mo(load(po_path(locale), locale)):
            problems.append(f"{mo} is missing or stale: run `python scripts/i18n.py compile`")
    return problems


def check() -> list[str]:
    """Every problem with the catalogs: a message not marked for extraction, the
    template out of date, a catalog incomplete, a compiled catalog stale. Empty when
    all is well."""
    template = load(TEMPLATE)
    problems = unextracted_messages() + template_problems(template, extract_template())
    for locale in catalog_locales():
        problems += catalog_problems(template, load(po_path(locale), locale))
    return problems + compiled_problems(LOCALE_DIR)


def main(argv: list[str]) -> int:
    """Run one command (see the module docstring); returns the exit status."""
    command, *args = argv or ["--help"]
    if command == "extract" and not args:
        for path in extract():
            print(f"wrote {path.relative_to(ROOT)}")
    elif command == "init" and len(args) == 1:
        try:
            print(f"wrote {init(args[0]).relative_to(ROOT)}")
        except FileExistsError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
    elif command == "compile" and not args:
        for path in compile_catalogs():
            print(f"wrote {path.relative_to(ROOT)}")
    elif command == "check" and not args:
        problems = check()
        print("\n".join(problems) or "catalogs complete and up to date")
        return 1 if problems else 0
    else:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
