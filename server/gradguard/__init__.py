"""GradGuard: finds PyTorch autograd graph-lifetime hazards in Python source, statically."""

from __future__ import annotations

import functools
import os

__version__ = "0.1.0"

_CHECKOUT_PYPROJECT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "pyproject.toml")


def project_url(label: str) -> str:
    """GradGuard's ``[project.urls]`` entry ``label`` (``Repository``): from the
    installed distribution's metadata, else (not installed, or installed before the
    entry existed: an old editable install) from the ``pyproject.toml`` of the source
    checkout this package is in. Raises :class:`LookupError`, saying both places it
    looked, when neither has it."""
    urls = _project_urls()
    if label not in urls:
        raise LookupError(f"GradGuard's project URL {label!r} is unknown: neither the "
                          f"installed 'gradguard' distribution's metadata nor "
                          f"{_CHECKOUT_PYPROJECT} has it in [project.urls]")
    return urls[label]


@functools.cache
def _project_urls() -> dict[str, str]:
    import importlib.metadata

    try:
        entries = importlib.metadata.metadata("gradguard").get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        entries = []
    urls = dict(tuple(part.strip() for part in entry.split(",", 1)) for entry in entries)
    if not urls and os.path.isfile(_CHECKOUT_PYPROJECT):
        from gradguard.config import tomllib

        with open(_CHECKOUT_PYPROJECT, "rb") as f:
            project = tomllib.load(f).get("project", {})
        if project.get("name") == "gradguard":
            urls = dict(project.get("urls", {}))
    return urls
