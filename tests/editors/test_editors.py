"""Real editors, headless, against the real ``gradguard lsp``.

Each editor test copies an example into a temporary project, runs the editor headless
(under ``timeout``) with the recipe read from docs/editors.md and a driver script from
this directory, and asserts on the JSON the driver wrote: GradGuard's diagnostic (code,
line, column, message as the editor shows it), the hover text, the code actions offered
and the preferred one applied through the editor's code action command, the buffer text
after the fix, the diagnostic clearing after the fix and coming back after undo.

A missing editor skips its tests with the reason, unless ``GG_REQUIRE_EDITORS=1``
(``scripts/ci.d/30-editors.sh`` sets it after installing the editors): then it fails.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DOCS = REPO / "docs" / "editors.md"
EXAMPLES = REPO / "examples"
BIN = Path(sys.executable).parent  # the environment running the tests: gradguard is installed there

RUN_LIMIT_S = 180  # hard limit of one editor run (``timeout``); a run takes 3-10 s here
WATCHDOG_MS = 150_000  # the driver's own limit: it writes what it gathered and quits


# ----------------------------------------------------------------------------- recipes

RECIPE = re.compile(r"<!-- recipe: (?P<name>[\w.-]+) -->\n```(?P<lang>\w+)\n(?P<body>.*?)```\n", re.S)


@functools.cache
def recipes() -> dict[str, str]:
    """The recipe blocks of docs/editors.md by name (``<!-- recipe: NAME -->`` before a
    fenced block): the text the tests run."""
    return {m["name"]: m["body"] for m in RECIPE.finditer(DOCS.read_text(encoding="utf-8"))}


def test_every_recipe_is_run_or_checked():
    assert sorted(recipes()) == ["emacs-eglot", "helix", "neovim-0.11", "neovim-0.7",
                                 "neovim-0.8", "vim-ale"]


def test_helix_recipe_is_valid_toml_that_starts_gradguard_for_python():
    config = tomllib.loads(recipes()["helix"])
    assert config["language-server"]["gradguard"] == {"command": "gradguard", "args": ["lsp"]}
    assert config["language"] == [{"name": "python", "language-servers": ["pylsp", "gradguard"]}]


# ----------------------------------------------------------------------------- editors


def _require(available: bool, reason: str) -> None:
    if not available:
        if os.environ.get("GG_REQUIRE_EDITORS") == "1":
            pytest.fail(f"{reason} (GG_REQUIRE_EDITORS=1)")
        pytest.skip(f"{reason}: scripts/ci.d/30-editors.sh installs it")


def _quiet(*cmd: str) -> bool:
    try:
        return subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@functools.cache
def _have_eglot() -> bool:
    return _quiet("emacs", "--batch", "-q", "--eval",
                  "(progn (require 'package) (package-activate-all)"
                  " (kill-emacs (if (locate-library \"eglot\") 0 1)))")


@functools.cache
def _have_ale() -> bool:
    return _quiet("vim", "-N", "-u", "NONE", "-i", "NONE", "-n", "-es", "-c",
                  "if empty(globpath(&packpath, 'pack/*/opt/ale/plugin/ale.vim')) | cquit | endif",
                  "-c", "qa!")


@dataclasses.dataclass(frozen=True)
class Editor:
    """How to run one editor headless on ``FILE`` with ``RECIPE`` and ``DRIVER``."""

    name: str
    recipe: str  # name in docs/editors.md
    suffix: str  # of the recipe file the editor loads
    driver: str  # in this directory
    argv: tuple[str, ...]  # {recipe}, {driver}, {file} are replaced
    col_base: int  # column of a diagnostic's first character: 0 or 1
    message_prefix: str  # what the editor puts before the server's message, "{code}" replaced

    def check_installed(self) -> None:
        binary = self.argv[0]
        _require(shutil.which(binary) is not None, f"{binary} is not installed")
        if self.name == "emacs":
            _require(_have_eglot(), "eglot is not installed for Emacs (Debian: elpa-eglot)")
        if self.name == "vim":
            _require(_have_ale(), "ALE is not installed for Vim (Debian: vim-ale)")


NVIM = Editor("nvim", "neovim-0.7", ".lua", "nvim_driver.lua",
              ("nvim", "--headless", "-i", "NONE", "-n", "-u", "{driver}", "{file}"),
              col_base=0, message_prefix="")
EMACS = Editor("emacs", "emacs-eglot", ".el", "eglot_driver.el",
               ("emacs", "--batch", "-q", "-l", "{recipe}", "-l", "{driver}", "{file}"),
               col_base=0, message_prefix="gradguard [{code}]: ")
VIM = Editor("vim", "vim-ale", ".vim", "ale_driver.vim",
             ("vim", "-N", "-u", "{recipe}", "-i", "NONE", "-n", "-es", "-S", "{driver}", "{file}"),
             col_base=1, message_prefix="")


# ----------------------------------------------------------------------------- expectations


@dataclasses.dataclass(frozen=True)
class Case:
    """What the server reports on one example, in each locale we check."""

    example: str
    code: str
    line: int  # 1-based
    col: int  # 0-based
    end_col: int  # 0-based, exclusive
    message: dict[str, str]
    hover: dict[str, tuple[str, ...]]  # the hover's first lines after its title (fix first)
    actions: dict[str, tuple[tuple[str, str, bool], ...]]  # (title, kind, preferred), in order
    fix_line: int  # 1-based line the preferred fix rewrites
    fixed_lines: tuple[str, ...]  # what that line becomes
    hint: dict[str, object] | None = None  # the Hint at the fix site, when on another line


RUN_TIME = {  # the hover's "at run time" line, after its "why" paragraph
    "en": "**At run time:** Raises `RuntimeError: Trying to backward through the graph a second "
          "time (or directly access saved tensors after they have already been freed)`.",
    "zh-CN": "**运行时会发生什么：** 抛出 `RuntimeError: Trying to backward through the graph a "
             "second time (or directly access saved tensors after they have already been freed)`。",
}
NAMES = {"GG101": "backward-through-freed-graph", "GG102": "graph-carried-across-iterations"}

CHAR_RNN_FIX = {
    "en": "Detach `hidden` after the backward on line 39, so the next iteration starts a new graph",
    "zh-CN": "在第 39 行的反向传播之后分离 `hidden`（detach），让下一次迭代从一张新的计算图开始",
}
CHAR_RNN = Case(
    example="char_rnn.py", code="GG102", line=39, col=12, end_col=27,
    message={
        "en": "`loss` reaches the previous iteration's graph through `hidden`, which the "
              "backward on line 39 freed in that iteration",
        "zh-CN": "`loss` 通过 `hidden` 连到了上一次迭代的计算图，而那张图在上一次迭代中"
                 "已经被第 39 行的反向传播释放了",
    },
    hover={
        "en": (f"**Fix:** {CHAR_RNN_FIX['en']}", "", "**Why:**",
               "- line 36: graph of `hidden` built here", "- line 39: this backward freed it",
               "", RUN_TIME["en"]),
        "zh-CN": (f"**修复方法：** {CHAR_RNN_FIX['zh-CN']}", "", "**原因：**",
                  "- 第 36 行：`hidden` 的计算图在这里构建", "- 第 39 行：这里的反向传播释放了这张图",
                  "", RUN_TIME["zh-CN"]),
    },
    actions={
        "en": ((CHAR_RNN_FIX["en"], "quickfix", True),
               ("Silence with retain_graph=True on line 39, which only trades this error for "
                "another: the graph of `hidden` (built on line 36, through `self.embed`, "
                "`self.rnn`) stays in memory, but `opt.step()` on line 40 changes the parameters "
                "it saved, so the backward on line 39 then fails with \"modified by an inplace "
                "operation\"", "quickfix", False),
               ("Suppress GG102 on this line", "quickfix", False),
               ("Fix all GradGuard problems", "source.fixAll.gradguard", False)),
        "zh-CN": ((CHAR_RNN_FIX["zh-CN"], "quickfix", True),
                  ("在第 39 行加上 retain_graph=True 压掉报错，只是把这个错误换成另一个：`hidden` 的"
                   "计算图（在第 36 行构建，经过 `self.embed`, `self.rnn`）会留在内存里，但第 40 行的 "
                   "`opt.step()` 会原地修改它保存的参数，于是第 39 行的反向传播随后会报 "
                   "\"modified by an inplace operation\"", "quickfix", False),
                  ("在本行忽略 GG102", "quickfix", False),
                  ("修复 GradGuard 发现的所有问题", "source.fixAll.gradguard", False)),
    },
    fix_line=39,
    fixed_lines=("            loss.backward()", "            hidden = hidden.detach()"),
)

DCGAN_FIX = "Detach `fake` on line 37: that loss must not backpropagate into the graph that built it"
DCGAN = Case(
    example="dcgan.py", code="GG101", line=44, col=8, end_col=23,
    message={"en": "`errG` is backpropagated through the graph of `fake` (built on line 33), "
                   "which the backward on line 38 already freed"},
    hover={"en": (f"**Fix:** {DCGAN_FIX}", "", "**Why:**", "- line 33: graph of `fake` built here",
                  "- line 38: this backward freed it", "", RUN_TIME["en"])},
    actions={"en": ((DCGAN_FIX, "quickfix", True),
                    ("Silence with retain_graph=True on line 38, which hides the bug: the graph "
                     "of `fake` (built on line 33, through `netG`) stays in memory until the "
                     "backward on line 44 runs through it a second time", "quickfix", False),
                    ("Suppress GG101 on this line", "quickfix", False),
                    ("Fix all GradGuard problems", "source.fixAll.gradguard", False))},
    fix_line=37,
    fixed_lines=("        errD = criterion(netD(real), real_label) + "
                 "criterion(netD(fake.detach()), fake_label)",),
    hint={"line": 37, "col": 66, "end_col": 70,  # on `fake`, which the fix detaches
          "message": {"en": f"fix here: {DCGAN_FIX}"}},
)
SUPPRESS = {"en": "Suppress {code} on this line", "zh-CN": "在本行忽略 {code}"}


# ----------------------------------------------------------------------------- running


def run_editor(editor: Editor, case: Case, tmp_path: Path, locale: str | None = None
               ) -> tuple[dict, str]:
    """Run ``editor`` on a copy of ``case.example``; the driver's JSON and the editor's
    output (for failure messages)."""
    editor.check_installed()
    gradguard = shutil.which("gradguard", path=str(BIN))
    assert gradguard, f"no gradguard executable next to {sys.executable} (pip install -e .)"
    project = tmp_path / "project"
    project.mkdir()
    source = project / case.example
    shutil.copyfile(EXAMPLES / case.example, source)
    recipe = tmp_path / f"recipe{editor.suffix}"
    recipe.write_text(recipes()[editor.recipe], encoding="utf-8")
    out = tmp_path / "result.json"
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LC_", "LANG", "XDG_", "NVIM", "VIM", "EMACS", "GG_"))}
    env.update(
        PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', os.defpath)}",
        HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local/share"), XDG_STATE_HOME=str(home / ".local/state"),
        XDG_CACHE_HOME=str(home / ".cache"), LANG="C.UTF-8",
        GG_RECIPE=str(recipe), GG_OUT=str(out), GG_WATCHDOG_MS=str(WATCHDOG_MS),
    )
    if locale:
        env["GG_LOCALE"] = locale
    argv = [a.format(recipe=recipe, driver=HERE / editor.driver, file=source.name)
            for a in editor.argv]
    proc = subprocess.run(["timeout", "-k", "10", str(RUN_LIMIT_S - 15), *argv], cwd=project,
                          env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          timeout=RUN_LIMIT_S)
    output = (f"$ {' '.join(argv)}\nexit {proc.returncode}\n--- stdout\n"
              f"{proc.stdout.decode(errors='replace')[-4000:]}\n--- stderr\n"
              f"{proc.stderr.decode(errors='replace')[-4000:]}")
    assert out.exists(), f"the driver wrote no result\n{output}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result.get("error") is None and proc.returncode == 0, \
        f"{json.dumps(result, indent=1, ensure_ascii=False)}\n{output}"
    return result, output


def expected_text(case: Case) -> str:
    lines = (EXAMPLES / case.example).read_text(encoding="utf-8").splitlines()
    lines[case.fix_line - 1:case.fix_line] = case.fixed_lines
    return "\n".join(lines) + "\n"


def check_run(editor: Editor, case: Case, result: dict, locale: str) -> None:
    """The assertions every editor run must pass."""
    diagnostic = {
        "code": case.code, "line": case.line, "col": case.col + editor.col_base,
        "end_line": case.line, "end_col": case.end_col,
        "message": editor.message_prefix.format(code=case.code) + case.message[locale],
    }
    expected = [diagnostic]
    if case.hint is not None:  # on the line the fix edits, same code (the editor's order)
        expected.append({**diagnostic, "line": case.hint["line"], "end_line": case.hint["line"],
                         "col": case.hint["col"] + editor.col_base,
                         "end_col": case.hint["end_col"],
                         "message": editor.message_prefix.format(code=case.code)
                         + case.hint["message"][locale]})
    seen = [{k: d[k] for k in diagnostic} for d in result["diagnostics"]]
    assert sorted(seen, key=lambda d: (d["line"], d["col"])) == \
        sorted(expected, key=lambda d: (d["line"], d["col"]))
    # the driver hovers and asks for fixes at the first: the finding's, or its hint (the
    # same hover and fixes; "# noqa" is offered only on the finding's line)
    actions = list(case.actions[locale])
    if seen[0] != diagnostic:
        actions = [a for a in actions if a[0] != SUPPRESS[locale].format(code=case.code)]
    hover = result["hover"].splitlines()
    # the fix first, and the diagnostic's message not repeated (the editor shows it)
    assert hover[:2 + len(case.hover[locale])] == \
        [f"**{case.code}** `{NAMES[case.code]}`", ""] + list(case.hover[locale])
    assert case.message[locale] not in result["hover"]
    assert [(a["title"], a["kind"], a["preferred"]) for a in result["actions"]] == actions
    assert result["applied"] == case.actions[locale][0][0]
    assert result["text"] == expected_text(case)
    assert result["steps"][-6:] == ["diagnostic", "hover", "fixed", "cleared", "returned",
                                    "stopped"]
    assert result["undone"] is True
    assert sorted(({k: d[k] for k in diagnostic} for d in result["diagnostics_after_undo"]),
                  key=lambda d: (d["line"], d["col"])) == \
        sorted(expected, key=lambda d: (d["line"], d["col"]))
    if editor is NVIM:  # the driver records how the server process ended after shutdown/exit
        assert result["server_exit"] == {"code": 0, "signal": 0}


EDITORS = [pytest.param(e, id=e.name) for e in (NVIM, EMACS, VIM)]
CASES = [pytest.param(c, id=c.example.removesuffix(".py")) for c in (CHAR_RNN, DCGAN)]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("editor", EDITORS)
def test_diagnostic_hover_and_preferred_fix_in_english(editor: Editor, case: Case, tmp_path: Path):
    result, _ = run_editor(editor, case, tmp_path)
    check_run(editor, case, result, "en")


@pytest.mark.parametrize("editor", [pytest.param(e, id=e.name) for e in (NVIM, EMACS)])
def test_explains_in_chinese_with_locale_initialization_option(editor: Editor, tmp_path: Path):
    result, _ = run_editor(editor, CHAR_RNN, tmp_path, locale="zh-CN")
    check_run(editor, CHAR_RNN, result, "zh-CN")


@pytest.mark.parametrize("name", ["neovim-0.8", "neovim-0.11"])
def test_newer_neovim_recipes_are_valid_lua(name: str, tmp_path: Path):
    """Debian 12 has no Neovim 0.8+: these recipes are only parsed (by 0.7's LuaJIT)."""
    NVIM.check_installed()
    path = tmp_path / "recipe.lua"
    path.write_text(recipes()[name], encoding="utf-8")
    proc = subprocess.run(
        ["timeout", "60", "nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c",
         f"lua local ok, err = loadfile({json.dumps(str(path))}) "
         "if not ok then io.stderr:write(err) vim.cmd('cquit 1') end", "-c", "qa!"],
        stdin=subprocess.DEVNULL, capture_output=True, timeout=90)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
