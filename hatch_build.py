"""Hatchling build hook: compile the gettext catalogs (``.po`` -> ``.mo``) into the package.

Runs for the wheel target, standard and editable alike: each
``server/gradguard/i18n/locale/<locale>/LC_MESSAGES/gradguard.po`` is compiled with Babel
(a build requirement) into the ``gradguard.mo`` beside it. A standard wheel packs the
``.mo`` files as build artifacts (they are git-ignored, so they must be named here);
an editable install imports the package from the source tree, where they now are.
The compiling is done by ``scripts/i18n.py`` (``compile``), the same code developers run.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogBuildHook(BuildHookInterface):
    """Compiles every message catalog before the wheel's files are collected."""

    def initialize(self, version: str, build_data: dict) -> None:
        """Compile the catalogs and mark the ``.mo`` files as artifacts to include."""
        root = Path(self.root)
        spec = importlib.util.spec_from_file_location("gradguard_i18n_tool", root / "scripts" / "i18n.py")
        tool = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = tool
        spec.loader.exec_module(tool)
        for mo in tool.compile_catalogs():
            build_data["artifacts"].append("/" + mo.relative_to(root).as_posix())
