#!/usr/bin/env bash
# The main job: set up (install, configure, build), then turn a real model
# graph (BERT-base exported by torch-mlir, ../shared/models) into an FP8
# graph under the DeepSeek-V3 policy and print the report. The FP8 graph is
# written to build/bert_base_fp8.mlir.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh

graph=../shared/models/bert_base_linalg.mlir
out=build/bert_base_fp8.mlir
if [ ! -f "$graph" ]; then
  echo "note: $graph not found (the shared model graphs live beside the checkout);"
  echo "      running on the bundled examples/mlp_linalg.mlir instead"
  graph=examples/mlp_linalg.mlir
  out=build/mlp_fp8.mlir
fi
echo
echo "== fp8-opt --fp8-pipeline=\"policy=deepseek-v3\" $graph -o $out"
build/bin/fp8-opt --fp8-pipeline="policy=deepseek-v3" "$graph" -o "$out"
echo
echo "== wrote $out: $(grep -c 'fp8.scaled_matmul' "$out") fp8.scaled_matmul, $(grep -c 'fp8.quantize' "$out") fp8.quantize"
