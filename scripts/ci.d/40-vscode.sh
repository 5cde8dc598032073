#!/usr/bin/env bash
# VS Code extension: install Node deps (npm ci), Debian Chromium and code-server, type-check and
# package the .vsix (GradGuard's wheel inside), run the client's unit tests, then the integration
# suite inside a real VS Code workbench (code-server 4.100.3) against the unpacked .vsix, with the
# server run by the project's .venv (made by 10-python.sh). From scratch on a fresh Debian machine as root; every step is bounded.
set -euo pipefail
cd "$(dirname "$0")/../.."
export DEBIAN_FRONTEND=noninteractive
VENV=${GG_VENV:-.venv}
PYTHON="$PWD/$VENV/bin/python"
CODE_SERVER_DIR="$PWD/build/code-server"

step() { echo "=== 40-vscode: $* ($(date +%T))"; }
fail() { echo "40-vscode FAILED: $*" >&2; exit 1; }
# retry N TIMEOUT CMD...: run CMD up to N times, each bounded by TIMEOUT seconds (network steps)
retry() {
  local n=$1 limit=$2 i; shift 2
  for ((i = 1; i <= n; i++)); do
    timeout --kill-after=30 "$limit" "$@" && return 0
    echo "attempt $i/$n failed: $*" >&2
    sleep $((i * 10))
  done
  return 1
}

step "prerequisites"
[ -x "$PYTHON" ] || fail "$PYTHON is missing: scripts/ci.d/10-python.sh creates the venv"
"$PYTHON" -c "import gradguard" || fail "$PYTHON cannot import gradguard (pip install -e . in 10-python.sh)"
command -v node >/dev/null || fail "node is not installed (Node 20 is required)"
[ "$(node -p 'process.versions.node.split(".")[0]')" = 20 ] || fail "code-server 4.100.3 needs Node 20, found $(node --version)"

step "apt: chromium, ripgrep and the build tools of code-server's native modules"
retry 3 600 apt-get update -q
retry 3 1200 apt-get install -y -q chromium build-essential pkg-config python3 \
  libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev ripgrep >/dev/null
[ -x /usr/bin/chromium ] || fail "/usr/bin/chromium missing after apt-get install chromium"

step "npm ci"
retry 2 900 npm ci --no-audit --no-fund --loglevel=error

step "code-server 4.100.3 into $CODE_SERVER_DIR"
retry 2 2400 bash client/test/integration/install-code-server.sh "$CODE_SERVER_DIR"

step "type check, bundle, build GradGuard's wheel and package the .vsix"
timeout 600 npm run package
WHEEL="extension/out/wheel/gradguard-$(node -p 'require("./package.json").version')-py3-none-any.whl"
# (the listing is read to its end: `grep -q` would stop early and, under pipefail, the
# lister's broken pipe would fail the check)
"$PYTHON" -m zipfile -l out/gradguard.vsix | grep "^$WHEEL " >/dev/null ||
    fail "out/gradguard.vsix does not ship $WHEEL"

step "unit tests (node --test, stub vscode module)"
PYTHON="$PYTHON" timeout 600 npm run test:unit

step "integration suite in code-server against out/gradguard.vsix"
timeout --kill-after=30 900 node client/test/integration/run-suite.js \
  --vsix out/gradguard.vsix --suite out/test/suite.js --python "$PYTHON" \
  --code-server "$CODE_SERVER_DIR/node_modules/.bin/code-server" --timeout 420
