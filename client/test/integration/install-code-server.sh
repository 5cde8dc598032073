#!/usr/bin/env bash
# Install code-server 4.100.3 (VS Code 1.100.3, the last release that runs on Node 20) into DEST from the
# npm registry only. Usage: install-code-server.sh DEST. Idempotent: does nothing when DEST has it.
# code-server's own postinstall cannot run here (it refuses root without npm_config_unsafe_perm and lets
# @vscode/ripgrep download rg from GitHub), so this does its steps: install without scripts, drop in
# Debian's rg, rebuild the native modules, and make the links postinstall.sh makes.
# Needs (apt): build-essential pkg-config python3 libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev ripgrep.
set -euo pipefail
VERSION=4.100.3
DEST=${1:?usage: install-code-server.sh DEST}
BIN="$DEST/node_modules/.bin/code-server"
if [ -x "$BIN" ] && "$BIN" --version 2>/dev/null | grep -q "^$VERSION "; then
  echo "code-server $VERSION already in $DEST"
  exit 0
fi
npm_i() { timeout 900 npm install --no-audit --no-fund --loglevel=error "$@"; }
mkdir -p "$DEST"
cd "$DEST"
[ -f package.json ] || echo '{"name": "gradguard-code-server", "private": true}' > package.json
npm_i --ignore-scripts "code-server@$VERSION"
cd node_modules/code-server/lib/vscode
npm_i --omit=dev --ignore-scripts
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
npm_config_yes=true timeout 1200 npm rebuild --loglevel=error   # node-pty, spdlog, kerberos, ... (npx node-gyp needs --yes)
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
(cd extensions && npm_i --omit=dev)
cd "$DEST"
timeout 600 npm rebuild argon2 --loglevel=error
"$BIN" --version
