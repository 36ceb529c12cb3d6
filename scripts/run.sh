#!/usr/bin/env bash
# The main job: set up (install, configure, build), then run fp8-opt on a
# bundled example graph and print what it did.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh

example=examples/linear_deepseek_v3.mlir
echo
echo "== fp8-opt $example"
build/bin/fp8-opt "$example"
echo
echo "== verified and round-tripped $(grep -c 'fp8\.' "$example") fp8 ops/attributes in $example"
