#!/usr/bin/env bash
# Python: install GradGuard with its test extras (torch pinned to the CPU build) and run pytest.
set -euo pipefail
PY=${PYTHON:-python3}
VENV=${GG_VENV:-.venv}
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/pip" install -q --upgrade pip
"$VENV/bin/pip" install -q -e '.[test]'
"$VENV/bin/python" -m pytest -q -p no:cacheprovider
