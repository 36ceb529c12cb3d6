#!/usr/bin/env bash
# The whole test suite: set up (install, configure, build), check the C/C++
# formatting (scripts/check-format.sh), then run check-fp8 (lit tests, the
# GoogleTest unit tests and pytest) and print its summary.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
echo
echo "== format"
scripts/check-format.sh
echo
echo "== check-fp8"
ninja -C build check-fp8
