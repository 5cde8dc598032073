"""Work-done progress (``$/progress``) of analyses that take long, against the scripted
engine (``fake_server.py``: a text with ``# block`` keeps the engine busy until the test
releases it): created and begun only once an analysis has run for half a second without
a result, ended when its diagnostics are published or a newer edit supersedes it;
nothing for a fast analysis, nothing for a client without ``window.workDoneProgress``."""

from __future__ import annotations

import pytest
from lsprotocol import types as t

from lsp_client import Client

# a pull client (VS Code) and a push one (Neovim): the server ends its progress after
# publishing either way
pytestmark = [pytest.mark.asyncio,
              pytest.mark.parametrize("fake", ["visual-studio-code", "neovim@v0.10.0"],
                                      indirect=True)]

URI = "file:///tmp/gg-progress/train.py"
TEXT = "net = Net()\nloss = net(x)\nloss.boom()\n"
BEGIN = t.WorkDoneProgressBegin(title="GradGuard: analysing train.py")


def kinds(client: Client) -> list[tuple]:
    """The progress and publish events, with each progress token numbered by its order."""
    tokens: dict = {}
    return [(e[0], tokens.setdefault(e[1], len(tokens) + 1)) if e[0] != "publish"
            else e for e in client.events]


async def test_a_slow_analysis_shows_its_progress_until_it_publishes(fake: Client):
    fake.open(URI, TEXT + "# block\n")
    assert await fake.command("test.waitStarted") is True
    await fake.until(lambda: ("begin", 1) in kinds(fake))  # (after half a second)
    [(token, reports)] = fake.progress_reports.items()
    assert reports == [BEGIN]
    assert await fake.command("test.release") is True
    [d] = await fake.diagnostics_of(URI, 1)
    assert d.code == "GG101"
    await fake.until(lambda: ("end", 1) in kinds(fake))
    assert fake.progress_reports == {token: [BEGIN, t.WorkDoneProgressEnd()]}
    expected = [("create", 1), ("begin", 1), ("end", 1)]
    if not fake.pulls:  # ended once the diagnostics were out
        expected.insert(2, ("publish", URI, 1))
    assert kinds(fake) == expected


@pytest.mark.init(locale="zh-CN")
async def test_the_progress_title_is_in_the_users_language(fake: Client):
    fake.open(URI, TEXT + "# block\n")
    await fake.until(lambda: ("begin", 1) in kinds(fake))
    assert [r.title for r in fake.progress_reports.values() for r in r] == [
        "GradGuard：正在分析 train.py"]
    assert await fake.command("test.release") is True
    await fake.until(lambda: ("end", 1) in kinds(fake))


async def test_a_superseded_analysis_ends_its_progress_at_the_newer_edit(fake: Client):
    fake.open(URI, TEXT + "# block\n")
    await fake.until(lambda: ("begin", 1) in kinds(fake))
    fake.replace_all(URI, 2, TEXT)
    await fake.until(lambda: ("end", 1) in kinds(fake))  # while the engine is still busy
    assert await fake.command("test.release") is True
    [d] = await fake.diagnostics_of(URI, 2)
    assert d.range.start.line == 2
    # the newer analysis waited for the busy engine: its own progress may have begun;
    # every progress begun has ended
    await fake.until(lambda: sum(k == "begin" for k, *_ in kinds(fake)) ==
                     sum(k == "end" for k, *_ in kinds(fake)))
    assert all(reports[0] == BEGIN and reports[-1] == t.WorkDoneProgressEnd()
               and len(reports) == 2 for reports in fake.progress_reports.values())


async def test_a_fast_analysis_shows_no_progress(fake: Client):
    fake.open(URI, TEXT)
    [d] = await fake.diagnostics_of(URI, 1)
    assert d.code == "GG101"
    assert await fake.hover(URI, 0, 0) is None  # (a round trip: what was sent is here)
    assert fake.progress_reports == {}
    assert [e[0] for e in fake.events] == ([] if fake.pulls else ["publish"])


async def test_with_no_delay_a_supporting_client_sees_every_analysis(fake: Client):
    # the control of the next test: the same steps, with the capability
    assert await fake.command("test.progressDelay", 0) is True
    fake.open(URI, TEXT + "# block\n")
    assert await fake.command("test.waitStarted") is True
    assert await fake.command("test.release") is True
    await fake.diagnostics_of(URI, 1)
    await fake.until(lambda: ("end", 1) in kinds(fake))
    assert [e for e in kinds(fake) if e[0] != "publish"] == [
        ("create", 1), ("begin", 1), ("end", 1)]


@pytest.mark.init(progress=False)
async def test_a_client_without_progress_support_is_sent_none(fake: Client):
    assert await fake.command("test.progressDelay", 0) is True
    fake.open(URI, TEXT + "# block\n")
    assert await fake.command("test.waitStarted") is True
    assert await fake.command("test.release") is True
    [d] = await fake.diagnostics_of(URI, 1)
    assert d.code == "GG101"
    assert await fake.hover(URI, 0, 0) is None
    assert fake.progress_reports == {}
    assert [e[0] for e in fake.events] == ([] if fake.pulls else ["publish"])
