"""Message catalogs and locale negotiation.

English is the source language: every user-visible string is an English gettext msgid
(marked with ``N_()`` so Babel extracts it) and English needs no catalog. Other locales
ship as compiled catalogs ``locale/<locale>/LC_MESSAGES/gradguard.mo`` inside this
package; the ``.po`` sources next to them are compiled at build time by the hatchling
hook (``hatch_build.py``), for wheels and editable installs alike.

Locale tags arrive in many spellings: BCP 47 from editors (``zh-cn``, ``zh-Hans-CN``),
POSIX from the environment (``zh_CN.UTF-8``, ``C``). :func:`canonical_locale` reduces a
tag to ``language[_REGION]``; :func:`normalize_locale` then picks a shipped locale.

Shipped locales are ``en`` and every locale with a compiled catalog in the package
(today ``zh_CN``). Traditional Chinese tags (``zh-TW``, ``zh-Hant``, ``zh-HK``) reach
``zh_TW`` when a ``zh_TW`` catalog ships and English otherwise: Simplified Chinese is not
offered to a reader who asked for Traditional.
"""

from __future__ import annotations

import functools
import gettext
import os
import re
from pathlib import Path
from typing import Mapping

from gradguard.analysis.model import Message

DOMAIN = "gradguard"
"""The gettext domain: catalogs are named ``gradguard.po`` / ``gradguard.mo``."""

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""Where the catalogs live: ``LOCALE_DIR/<locale>/LC_MESSAGES/gradguard.mo``."""

SOURCE_LOCALE = "en"
"""The language of the msgids; always shipped, needs no catalog."""

# Chinese regions are named by their script: Simplified (zh_CN) or Traditional (zh_TW).
_ZH_BY_SCRIPT = {"hans": "CN", "hant": "TW"}
_ZH_TRADITIONAL_REGIONS = frozenset({"TW", "HK", "MO"})


def canonical_locale(tag: str | None) -> str:
    """Reduce a locale tag to ``language`` or ``language_REGION``, whether or not shipped.

    Accepts BCP 47 (``zh-Hans-CN``, ``en-US``, any case) and POSIX names
    (``zh_CN.UTF-8``, ``de_DE@euro``): the encoding and modifier are dropped, the
    language is lower-cased and the region upper-cased. Chinese is reduced by script:
    ``zh``, ``zh-Hans``, ``zh-SG`` -> ``zh_CN``; ``zh-Hant``, ``zh-TW``, ``zh-HK``,
    ``zh-MO`` -> ``zh_TW`` (a script subtag decides over a region). ``None``, ``""``,
    ``C``, ``POSIX`` and anything that is not a language tag give ``"en"``.
    Never raises.
    """
    base = re.split(r"[.@]", (tag or "").strip(), maxsplit=1)[0]
    parts = [p for p in re.split(r"[-_]", base) if p]
    if not parts:
        return SOURCE_LOCALE
    language = parts[0].lower()
    if not (language.isascii() and language.isalpha() and 2 <= len(language) <= 3):
        return SOURCE_LOCALE  # "C", "POSIX", "*", garbage
    subtags = parts[1:]
    script = next((s.lower() for s in subtags if len(s) == 4 and s.isascii() and s.isalpha()), None)
    region = next(
        (s.upper() for s in subtags
         if s.isascii() and ((len(s) == 2 and s.isalpha()) or (len(s) == 3 and s.isdigit()))),
        None,
    )
    if language == "zh":
        if script in _ZH_BY_SCRIPT:
            region = _ZH_BY_SCRIPT[script]
        else:
            region = "TW" if region in _ZH_TRADITIONAL_REGIONS else "CN"
    return f"{language}_{region}" if region else language


@functools.lru_cache(maxsize=1)
def shipped_locales() -> tuple[str, ...]:
    """The locales this installation can serve: ``"en"`` then every locale with a
    compiled catalog in :data:`LOCALE_DIR`, sorted (e.g. ``("en", "zh_CN")``)."""
    compiled = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (SOURCE_LOCALE, *compiled)


def normalize_locale(tag: str | None) -> str:
    """The shipped locale for ``tag``: its :func:`canonical_locale` if shipped, else its
    language alone if shipped (``en_US`` -> ``en``), else ``"en"``.

    Examples: ``zh-cn``, ``zh-Hans``, ``zh_CN.UTF-8``, ``zh`` -> ``"zh_CN"``;
    ``en-US``, ``C.UTF-8``, ``None``, ``fr-FR`` -> ``"en"``; ``zh-TW`` -> ``"zh_TW"``
    only if that catalog ships, else ``"en"``. Never raises.
    """
    return _shipped_match(tag) or SOURCE_LOCALE


def _shipped_match(tag: str | None) -> str | None:
    """The shipped locale that serves ``tag`` (canonical form, else its language), or None."""
    canonical = canonical_locale(tag)
    shipped = shipped_locales()
    return next((c for c in (canonical, canonical.split("_", 1)[0]) if c in shipped), None)


def default_locale(environ: Mapping[str, str] | None = None) -> str:
    """The shipped locale the environment asks for (``os.environ`` unless given).

    Reads ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` in that order, as
    :func:`gettext.find` does: the first non-empty one decides. ``LANGUAGE`` may list
    several locales separated by ``:``; the first one that ships wins. Gives ``"en"``
    when nothing is set or nothing asked for ships.
    """
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        matches = (_shipped_match(tag) for tag in value.split(":"))
        return next((m for m in matches if m), SOURCE_LOCALE)
    return SOURCE_LOCALE


@functools.lru_cache(maxsize=None)
def _load(locale: str) -> gettext.NullTranslations:
    if locale == SOURCE_LOCALE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[locale])


def translator(locale: str | None) -> gettext.NullTranslations:
    """The translations for ``locale`` (any spelling; see :func:`normalize_locale`).

    English gives a :class:`gettext.NullTranslations` (msgids unchanged); a shipped
    locale gives its compiled catalog, where a msgid without translation falls back to
    English. One object per shipped locale, cached for the life of the process.
    """
    return _load(normalize_locale(locale))


def render(message: Message, locale: str | None) -> str:
    """``message`` translated into ``locale`` with its ``{name}`` arguments filled in.

    Raises ``KeyError`` if the translation names an argument the message lacks (the
    catalog test rules that out for shipped catalogs).
    """
    return message.render(translator(locale).gettext)
