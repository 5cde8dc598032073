"""``python -m gradguard.lsp [--tcp | --ws] [--host H] [--port P]``: the same as
``gradguard lsp``."""

import sys

from gradguard.cli import main

raise SystemExit(main(["lsp", *sys.argv[1:]]))
