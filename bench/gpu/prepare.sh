#!/usr/bin/env bash
# Runs HERE (the build machine, with fp8-opt and the CUDA toolkit's ptxas):
# compiles the GEMM kernels of shapes.txt, and the quantize kernels of their
# operands (A bf16 1x128, B f32 128x128), through fp8-gpu-pipeline to PTX,
# assembles them for sm_90a with ptxas (0 spills expected), builds the host
# program of the same functions into a shared library, and leaves
#   <build>/bench-gpu/kernels.ptx, kernels.cubin, ptxas.log, shapes.txt,
#   libfp8_bench_host.so (exports _mlir_ciface_gemm_<M>x<N>x<K> and
#   _mlir_ciface_quantize_<M>x<N>x<K>; the harness does not call it yet)
# for run.sh on the device machine (carry <build>/bench-gpu there).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${1:-$ROOT/build}
OUTDIR=$BUILD/bench-gpu
PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
mkdir -p "$OUTDIR"

MLIR=$OUTDIR/gemm-shapes.mlir
: > "$MLIR"
grep -v '^#' "$HERE/shapes.txt" | while read -r M N K; do
  [ -z "$M" ] && continue
  A="!fp8.scaled<${M}x${K}xf8E4M3FN, block = [1, 128], scale = f32>"
  B="!fp8.scaled<${N}x${K}xf8E4M3FN, block = [128, 128], scale = f32>"
  cat >> "$MLIR" <<MLIR
func.func @gemm_${M}x${N}x${K}(%a: $A, %b: $B) -> tensor<${M}x${N}xbf16> {
  %d = fp8.scaled_matmul %a, %b : $A, $B -> tensor<${M}x${N}xbf16>
  return %d : tensor<${M}x${N}xbf16>
}
func.func @quantize_${M}x${N}x${K}(%x: tensor<${M}x${K}xbf16>, %w: tensor<${N}x${K}xf32>) -> ($A, $B) {
  %a = fp8.quantize %x : tensor<${M}x${K}xbf16> -> $A
  %b = fp8.quantize %w : tensor<${N}x${K}xf32> -> $B
  return %a, %b : $A, $B
}
MLIR
done

"$BUILD/bin/fp8-opt" "$MLIR" --fp8-gpu-pipeline="chip=sm_90a" \
  | "$BUILD/bin/fp8-translate" --fp8-extract-gpu-object > "$OUTDIR/kernels.ptx"
"$PTXAS" -arch=sm_90a -v "$OUTDIR/kernels.ptx" -o "$OUTDIR/kernels.cubin" \
  2> "$OUTDIR/ptxas.log"
# The compiled host program of the same functions (fp8-gpu-pipeline
# host=llvm: launches through the mgpu* ABI, _mlir_ciface_ entries), as a
# shared library for the device machine (no MLIR there); it links against
# libfp8_mgpu_runtime.so, which run.sh builds there with runtime/.
LLVM_BIN=${LLVM_BIN:-/usr/lib/llvm-22/bin}
"$BUILD/bin/fp8-opt" "$MLIR" --fp8-gpu-pipeline="chip=sm_90a host=llvm" \
  | "$LLVM_BIN/mlir-translate" --mlir-to-llvmir > "$OUTDIR/host.ll"
"$LLVM_BIN/clang" -Wno-override-module -O2 -shared -fPIC "$OUTDIR/host.ll" \
  -o "$OUTDIR/libfp8_bench_host.so"
cp "$HERE/shapes.txt" "$OUTDIR/shapes.txt"
grep -E "Compiling entry|spill|Used" "$OUTDIR/ptxas.log"
if grep -qE "[1-9][0-9]* bytes spill" "$OUTDIR/ptxas.log"; then
  echo "prepare.sh: ptxas reports spills" >&2
  exit 1
fi
echo "prepared $OUTDIR (carry it to the device machine; run bench/gpu/run.sh there)"
