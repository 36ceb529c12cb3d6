#!/usr/bin/env bash
# Mutation testing: plants each fault of scripts/mutation/mutants.txt in a
# scratch copy of HEAD, rebuilds incrementally and runs the tests; prints the
# score per area (docs/testing.md). Arguments go to scripts/mutation/run.py
# (--help). Needs a configured toolchain (scripts/setup.sh) and takes about
# 1-3 minutes per mutant on 2 cores.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec python3 scripts/mutation/run.py "$@"
