"""Jupyter notebooks read as programs (gradguard.notebooks): the code cells
concatenated, IPython syntax held by placeholders, positions mapped back to cells, fixes
kept inside one cell and written back in the file's style, malformed notebooks refused."""

import json

import pytest

from gradguard import notebooks
from gradguard.analysis.model import Edit, Fix, Message, Pos, Span

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
