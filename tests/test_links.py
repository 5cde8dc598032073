"""Every link in the repository's documentation that points into the repository points
to a file that exists: relative links (``[editors](docs/editors.md)``), and links to
``<Repository>/blob/main/<path>`` (the rule pages every diagnostic links to), in
README.md, ARCHITECTURE.md, docs/**/*.md, the client's READMEs, package.json and its
package.nls*.json. Links to other sites cannot be checked offline and are not."""

from __future__ import annotations

import json
import pathlib
import re

from gradguard import project_url

ROOT = pathlib.Path(__file__).resolve().parent.parent
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)",
                   re.MULTILINE)
_URL = re.compile(r"https?://[^\s)\"'<>]+")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")


def documents(root: pathlib.Path) -> list[pathlib.Path]:
    """The files whose links are checked."""
    found = [root / "README.md", root / "ARCHITECTURE.md", root / "package.json"]
    found += sorted((root / "docs").rglob("*.md")) + sorted(root.glob("package.nls*.json"))
    found += sorted(p for p in (root / "client").rglob("README.md")
                    if "node_modules" not in p.parts)
    return [p for p in found if p.is_file()]


def _targets(path: pathlib.Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        strings: list[str] = []

        def walk(value):
            if isinstance(value, str):
                strings.append(value)
            elif isinstance(value, dict):
                for v in value.values():
                    walk(v)
            elif isinstance(value, list):
                for v in value:
                    walk(v)

        walk(json.loads(text))
        text = "\n".join(strings)
    else:
        text = _INLINE_CODE.sub("", _FENCE.sub("", text))
    links = [a or b for a, b in _LINK.findall(text)]
    return links + [u for u in _URL.findall(text) if u not in links]


def dead_links(root: pathlib.Path, repository: str) -> list[tuple[str, str]]:
    """``(file, link)`` for each link of :func:`documents` into the repository (relative,
    or under ``repository``'s ``blob/main`` or ``tree/main``) whose file does not exist."""
    dead = []
    base = re.compile(re.escape(repository.rstrip("/")) + r"/(?:blob|tree)/main/(.*)")
    for path in documents(root):
        for link in _targets(path):
            target = link.split("#", 1)[0].split("?", 1)[0]
            if (m := base.fullmatch(target)) is not None:
                local = root / m.group(1)
            elif re.match(r"[a-z][a-z0-9+.-]*:", target) or not target:
                continue  # another site (cannot be checked offline), mailto:, an anchor
            else:
                local = (root / target.lstrip("/")) if target.startswith("/") \
                    else path.parent / target
            if not local.exists():
                dead.append((str(path.relative_to(root)), link))
    return dead


def test_no_link_in_the_repository_points_to_nothing():
    assert dead_links(ROOT, project_url("Repository")) == []


def test_dead_links_are_found(tmp_path):
    repo = "https://example.org/me/gg"
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "docs" / "rules" / "GG101.md").write_text("x")
    (tmp_path / "README.md").write_text(
        "[ok](docs/rules/GG101.md#why) [gone](client/README.md) "
        f"[page]({repo}/blob/main/docs/rules/GG101.md) <{repo}/blob/main/docs/rules/GG999.md>\n"
        "[other site](https://pytorch.org/x) `[code](nothing.md)`\n"
        "```\n[fenced](nothing.md)\n```\n[ref]: docs/missing.md\n")
    (tmp_path / "docs" / "editors.md").write_text("![img](../img/shot.png) [up](../README.md)")
    (tmp_path / "package.json").write_text(json.dumps(
        {"homepage": f"{repo}/tree/main/docs", "bugs": f"{repo}/tree/main/examples",
         "x": ["see [it](docs/none.md)"]}))
    assert dead_links(tmp_path, repo) == [
        ("README.md", "client/README.md"),
        ("README.md", "docs/missing.md"),
        ("README.md", f"{repo}/blob/main/docs/rules/GG999.md"),
        ("package.json", "docs/none.md"),
        ("package.json", f"{repo}/tree/main/examples"),
        ("docs/editors.md", "../img/shot.png"),
    ]
