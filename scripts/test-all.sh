#!/usr/bin/env bash
# Install everything the test suite needs (pip, npm, apt) and run every test.
# Each part lives in scripts/ci.d/NN-name.sh and runs in order; any failure fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for part in scripts/ci.d/*.sh; do
  echo "::group:: $part"
  if ! bash "$part"; then
    echo "FAILED: $part"
    status=1
  fi
  echo "::endgroup::"
done
exit $status
