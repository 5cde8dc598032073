"""Shared for every test: the result cache of ``gradguard check`` lives in a fresh
folder per test (``$GRADGUARD_CACHE_DIR``, inherited by the CLI subprocesses tests
start), never in the user's cache folder, and no test sees another's entries."""

import pytest


@pytest.fixture(autouse=True)
def gradguard_cache_dir(tmp_path_factory, monkeypatch):
    """The cache folder of this test (created empty; not inside ``tmp_path``)."""
    folder = tmp_path_factory.mktemp("gradguard-cache")
    monkeypatch.setenv("GRADGUARD_CACHE_DIR", str(folder))
    return folder
