"""pytest-lsp fixtures for the GradGuard language server.

Every end-to-end test runs once per client capability profile that pytest-lsp ships
(VS Code, Neovim, Emacs), as a subprocess server over stdio. Spec violations that
pytest-lsp detects (``LspSpecificationWarning``) fail the test. Tests never sleep to
synchronise: they wait for the notification or the request they expect, with generous
timeouts (a loaded 2-core machine is slow, never wrong).
"""

from __future__ import annotations

import pathlib
from typing import Any

import pytest
import pytest_lsp

from lsp_client import (BROKEN_ROOT_SERVER, BROKEN_RULE_SERVER, FAKE_SERVER, HERE, PROFILES, REAL_SERVER, Client,
                        server_config, start)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "init(options=None, locale=None, configuration=None, refresh=False, "
        "progress=True, notebooks=False): what the client sends at initialize (initializationOptions, "
        "InitializeParams.locale, workspace/diagnostic/refresh and window.workDoneProgress "
        "support) and answers to workspace/configuration")


def pytest_collection_modifyitems(items):
    """Spec violations are errors in every test of this directory."""
    for item in items:
        if HERE in pathlib.Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning"))


async def _session(request, client: Client, default_options: Any = None, **defaults: Any):
    marker = request.node.get_closest_marker("init")
    kwargs = {**defaults, **(marker.kwargs if marker else {})}
    root = request.getfixturevalue("workspace") if "workspace" in request.fixturenames else None
    client.profile = request.param
    client.init_result = await start(client, request.param,
                                     kwargs.pop("options", default_options), root=root, **kwargs)


@pytest_lsp.fixture(params=PROFILES, config=server_config(FAKE_SERVER))
async def fake(request, lsp_client: Client):
    """A fake-engine server, initialised as one of the client profiles, debounce 0."""
    await _session(request, lsp_client, {"debounceMs": 0})
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(params=PROFILES, config=server_config(REAL_SERVER))
async def real(request, lsp_client: Client):
    """``gradguard lsp`` (the real engine), initialised as one of the client profiles,
    with the ``init`` marker's options (default: none, so the default debounce)."""
    await _session(request, lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(params=PROFILES, config=server_config(BROKEN_RULE_SERVER))
async def broken_rule(request, lsp_client: Client):
    """The real engine with GG101's finding builder raising (broken_rule_server.py),
    initialised as one of the client profiles, debounce 0."""
    await _session(request, lsp_client, {"debounceMs": 0})
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(params=PROFILES, config=server_config(BROKEN_ROOT_SERVER))
async def broken_root(request, lsp_client: Client):
    """The real engine with the interpreter raising on function ``train`` run alone
    (broken_root_server.py), initialised as one of the client profiles, debounce 0."""
    await _session(request, lsp_client, {"debounceMs": 0})
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(params=PROFILES, config=server_config(REAL_SERVER, {"LANG": "zh_CN.UTF-8"}))
async def real_zh_env(request, lsp_client: Client):
    """Like ``real``, with the server started under ``LANG=zh_CN.UTF-8``."""
    await _session(request, lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(params=["visual-studio-code"], config=server_config(REAL_SERVER))
async def vscode(request, lsp_client: Client):
    """``gradguard lsp`` (the real engine) initialised as VS Code with notebook sync (as
    vscode-languageclient 9 syncs notebooks), debounce 0, and the ``init`` marker's."""
    await _session(request, lsp_client, {"debounceMs": 0}, notebooks=True)
    yield
    await lsp_client.shutdown_session()
