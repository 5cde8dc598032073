#!/usr/bin/env bash
# Real editors: install Debian 12's Neovim (0.7.2), Emacs (28.2) with eglot (elpa-eglot 1.9) and
# Vim (9.0) with ALE (vim-ale 3.3), then run tests/editors: each editor, headless, runs its recipe
# from docs/editors.md against the real `gradguard lsp` of the project's .venv (made by
# 10-python.sh). GG_REQUIRE_EDITORS=1 turns a missing editor into a failure instead of a skip.
# From scratch on a fresh Debian machine as root; idempotent; every step is bounded.
set -euo pipefail
cd "$(dirname "$0")/../.."
export DEBIAN_FRONTEND=noninteractive
VENV=${GG_VENV:-.venv}
PYTHON="$PWD/$VENV/bin/python"

step() { echo "=== 30-editors: $* ($(date +%T))"; }
fail() { echo "30-editors FAILED: $*" >&2; exit 1; }

step "prerequisites"
[ -x "$PYTHON" ] || fail "$PYTHON is missing: scripts/ci.d/10-python.sh creates the venv"
[ -x "$VENV/bin/gradguard" ] || fail "$VENV/bin/gradguard is missing (pip install -e . in 10-python.sh)"

step "apt: neovim, emacs-nox, elpa-eglot, vim, vim-ale"
timeout --kill-after=30 600 apt-get -o Acquire::Retries=3 update -q
timeout --kill-after=30 1200 apt-get -o Acquire::Retries=3 install -y -q --no-install-recommends \
  neovim emacs-nox elpa-eglot vim vim-ale >/dev/null
for binary in nvim emacs vim; do
  command -v "$binary" >/dev/null || fail "$binary missing after apt-get install"
done
nvim --version | head -n 1
emacs --version | head -n 1
vim --version | head -n 1

step "headless editors against gradguard lsp"
GG_REQUIRE_EDITORS=1 timeout --kill-after=30 1500 \
  "$PYTHON" -m pytest -q -p no:cacheprovider --durations=0 tests/editors
