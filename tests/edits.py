"""Random edits as people make them, for the incremental parser and engine tests."""

from __future__ import annotations

import random
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "examples").glob("*.py")) + sorted((ROOT / "tests" / "programs").glob("*.py"))

# what people type: code, brackets and quotes left open, comments at every indent, line
# breaks of every kind, indentation changes
SNIPPETS = ["x", "(", ")", '"""', "'", "#", "# note\n", "    # deep\n", "\n", "\r\n", "\r",
            "    ", "\t", "def g():\n    return 1\n", "class K:\n  a = 1\n", "@dec\n",
            "loss.backward()\n", "h = h.detach()\n", "else:\n", "  ", "\\\n", "é", "😀"]


def random_edit(rng: random.Random, text: str) -> str:
    """``text`` after one random edit (a snippet typed, a range deleted, a line moved,
    indented or dedented, the tail cut)."""
    lines = text.splitlines(keepends=True) or [""]
    kind = rng.random()
    if kind < 0.45:
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(SNIPPETS) + text[at:]
    if kind < 0.75:
        at = rng.randrange(len(text) + 1)
        return text[:at] + text[at + rng.randrange(1, 40):]
    if kind < 0.85:  # a whole line moved
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        line = lines.pop(i)
        lines.insert(j, line)
        return "".join(lines)
    if kind < 0.95:  # a line indented or dedented
        i = rng.randrange(len(lines))
        lines[i] = ("    " + lines[i]) if rng.random() < 0.5 else lines[i][4:]
        return "".join(lines)
    return text[: rng.randrange(len(text) + 1)]


def class_heavy(place: str = "middle") -> str:
    """One long class whose methods are the examples' functions: between imports and a
    trailing statement, as in a real file (``place="middle"``), or the file's first
    statement (``"first"``: after a header comment, the module header) or its last
    (``"last"``: before a comment at the end, the module footer)."""
    methods = []
    for copy in range(3):
        for script in SCRIPTS[:4]:
            for chunk in script.read_text().split("\ndef ")[1:]:
                code = f"def m{copy}_" + chunk.split("\nif __name__")[0].split("\nclass ")[0].rstrip()
                methods.append("".join("    " + line if line.strip() else line
                                       for line in code.splitlines(keepends=True)))
    head = {"middle": "import torch\n\n\n", "first": "# Trainer\n\n",
            "last": "import torch\n\n\n"}
    tail = {"middle": "\n\n\nx = Trainer()\n", "first": "\n\n\nx = Trainer()\n",
            "last": "\n\n# end of the file\n"}
    return head[place] + "class Trainer:\n    \"\"\"Many methods.\"\"\"\n\n" + \
        "\n\n".join(methods) + "\n    # end of the class\n" + tail[place]
