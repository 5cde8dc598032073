"""``python -m gradguard.lsp [--tcp | --ws] [--host H] [--port P]``: run the server."""

import argparse

from gradguard.lsp.server import add_arguments, main

parser = argparse.ArgumentParser(prog="gradguard lsp", description="GradGuard language server")
add_arguments(parser)
raise SystemExit(main(parser.parse_args()))
